package transport

import "github.com/bwmarrin/discordgo"

// threadArchiveMinutes is how long a quiet game thread stays open: a week,
// the longest Discord offers.
const threadArchiveMinutes = 10080

// StartThread opens a public thread in channel.
func (s *Sender) StartThread(channel, name string) (*discordgo.Channel, error) {
	return s.s.ThreadStartComplex(channel, &discordgo.ThreadStart{
		Name: Clip(name, 100), Type: discordgo.ChannelTypeGuildPublicThread, AutoArchiveDuration: threadArchiveMinutes,
	})
}

// RenameThread renames a thread the bot opened.
func (s *Sender) RenameThread(thread, name string) error {
	_, err := s.s.ChannelEditComplex(thread, &discordgo.ChannelEdit{Name: Clip(name, 100)})
	return err
}

// unarchive reopens an archived thread.
func (s *Sender) unarchive(thread string) error {
	open := false
	_, err := s.s.ChannelEditComplex(thread, &discordgo.ChannelEdit{Archived: &open})
	return err
}

// isArchivedThread reports Discord's refusal to change a message in an
// archived thread.
func isArchivedThread(err error) bool {
	return ErrorCode(err) == discordgo.ErrCodePerformedOperationOnArchivedThread
}

// IsUnknownChannel reports that the channel (or thread) is gone.
func IsUnknownChannel(err error) bool { return ErrorCode(err) == discordgo.ErrCodeUnknownChannel }
