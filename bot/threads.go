package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/meeplegames/meeple/bot/transport"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/meeplegames/meeple/storage"
)

// A game may live in a thread of its channel (`/lobby new thread:true`, or
// the server's default), so that one channel hosts many games. The thread
// is named after the game and its number; the lobby message in the
// channel links to it. Discord archives a quiet thread: the bot unarchives
// it when an edit is refused for that. A deleted thread pauses its game
// and the channel it hung from is told.

// threadPermissions are the bits of Permissions the bot needs in a
// channel to run games in its threads.
const threadPermissions = discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads

// missingThreadPermissions names the thread permissions the bot lacks in
// the interaction's channel, as Discord reported them with it.
func missingThreadPermissions(i *discordgo.Interaction) []string {
	return permissionNames(threadPermissions &^ i.AppPermissions)
}

// errThreadPermissions says which permissions are missing, named as
// Discord names them in the reader's language.
func errThreadPermissions(missing []string) error {
	return refuseWith("thread.permissions", "Names", permissionList(missing), "Count", len(missing))
}

// threadName is the name of a game's thread.
func threadName(title string, id uint64) string { return fmt.Sprintf("%s #%d", title, id) }

// openInThread moves a new lobby into a thread of its channel: it checks
// the bot's permissions, opens the thread and points g at it.
func (lh *lobbyHandler) openInThread(ctx context.Context, in *interaction, g *storage.Game, title string) error {
	i := in.Interaction
	if missing := missingThreadPermissions(i); len(missing) > 0 {
		return errThreadPermissions(missing)
	}
	t, err := lh.send.StartThread(i.ChannelID, in.publicTr(ctx).T("thread.new_name", "Game", title))
	if transport.ErrorCode(err) == discordgo.ErrCodeMissingPermissions || transport.ErrorCode(err) == discordgo.ErrCodeMissingAccess {
		return errThreadPermissions(permissionNames(threadPermissions))
	}
	if err != nil {
		return err
	}
	g.Channel, g.Parent = t.ID, i.ChannelID
	return nil
}

// announceThread names the new game's thread, posts its lobby there and
// answers in the channel with a link to it.
func (lh *lobbyHandler) announceThread(ctx context.Context, r *transport.Reply, in *interaction, g *storage.Game, title string) error {
	if err := lh.send.RenameThread(g.Channel, threadName(title, g.ID)); err != nil {
		lh.log.Warn("naming the game's thread failed", "game", g.ID, "err", transport.DescribeError(err))
	}
	m, err := lh.send.Post(g.Channel, lh.lobbyMessage(ctx, g, in.publicTr(ctx)))
	if err != nil {
		return err
	}
	if _, err := lh.store.Update(ctx, g.Channel, g.ID, func(g *storage.Game) error {
		setMessage(g, roleLobby, m.ID)
		return nil
	}); err != nil {
		lh.log.Warn("saving the lobby message id failed", "game", g.ID, "err", err)
	}
	return r.Message(transport.Message{Content: in.publicTr(ctx).T("thread.announce", "Game", title, "ID", g.ID, "Thread", g.Channel)})
}

// threadGone pauses a game whose thread was deleted and tells the channel
// it hung from, mentioning the game's creator. A game not in a thread, or
// no longer active, is left alone.
func (p *publisher) threadGone(ctx context.Context, g *storage.Game) {
	if g.Parent == "" {
		return
	}
	errNoThread := errors.New("the game is not in a thread")
	paused, err := p.store.Update(ctx, g.Channel, g.ID, func(r *storage.Game) error {
		if r.Parent == "" {
			return errNoThread
		}
		r.Deadline, r.RemindAt = time.Time{}, time.Time{}
		return nil
	})
	if errors.Is(err, storage.ErrNotFound) || errors.Is(err, errNoThread) {
		return
	}
	if err != nil {
		p.log.Warn("pausing a game whose thread is gone failed", "thread", g.Channel, "err", err)
		return
	}
	g = paused
	p.log.Warn("a game's thread is gone: game paused", "game", g.ID, "thread", g.Channel)
	var mentions []string
	if g.Creator != "" {
		mentions = []string{g.Creator}
	}
	tr := p.langs.server(ctx, g.Guild)
	p.post(g.Parent, transport.Message{Content: tr.T("board.thread_gone", "ID", g.ID, "Creator", g.Creator), Mentions: mentions}, g.ID)
}

// HandleThreadDelete takes Discord's word that a thread was deleted: a
// game living in it is paused and the channel it hung from is told, as
// when the bot finds the thread gone itself. Run calls it for the
// gateway's THREAD_DELETE events, which carry the thread's parent.
func (b *Bot) HandleThreadDelete(thread, parent string) {
	if !b.enter() {
		return
	}
	defer b.leave()
	defer b.recoverPanic("a deleted thread", nil, "thread", thread)
	g, err := b.pub.store.Get(b.life, thread) // the game the thread holds, whichever it is
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			b.log.Warn("reading the game of a deleted thread failed", "thread", thread, "err", err)
		}
		return
	}
	if g.Parent == "" {
		g.Parent = parent
	}
	b.pub.threadGone(b.life, g)
}
