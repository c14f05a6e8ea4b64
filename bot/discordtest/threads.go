package discordtest

import (
	"encoding/json"
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// A thread the fake made: POST /channels/{id}/threads opens one in a
// channel, PATCH /channels/{id} renames, archives or unarchives it.
// Tests make Discord archive or delete a thread with Fail (a message edit
// in an archived thread gets 50083; anything in a deleted one 10003).

// applyThread performs a thread start or a channel edit; s.mu is held.
func (s *Server) applyThread(req *Request) (int, any) {
	var body struct {
		Name     *string `json:"name"`
		Archived *bool   `json:"archived"`
		Type     int     `json:"type"`
	}
	if err := json.Unmarshal(req.Raw, &body); err != nil {
		return http.StatusBadRequest, map[string]any{"code": 50035, "message": err.Error()}
	}
	if req.Kind == ThreadStart {
		if body.Name == nil || *body.Name == "" || len([]rune(*body.Name)) > 100 {
			return http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body: name"}
		}
		typ := discordgo.ChannelType(body.Type)
		if typ == 0 {
			typ = discordgo.ChannelTypeGuildPrivateThread
		}
		t := &discordgo.Channel{ID: s.id(), Type: typ, ParentID: req.Channel, Name: *body.Name,
			ThreadMetadata: &discordgo.ThreadMetadata{}}
		s.threads[t.ID] = t
		req.Message = t.ID // the thread's id, for tests to find
		return http.StatusCreated, t
	}
	t, ok := s.threads[req.Channel]
	if !ok {
		return http.StatusNotFound, map[string]any{"code": discordgo.ErrCodeUnknownChannel, "message": "Unknown Channel"}
	}
	if body.Name != nil {
		t.Name = *body.Name
	}
	if body.Archived != nil {
		t.ThreadMetadata.Archived = *body.Archived
	}
	return http.StatusOK, t
}

// Thread returns a thread the fake made, by id.
func (s *Server) Thread(id string) (*discordgo.Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.threads[id]
	if !ok {
		return nil, false
	}
	c := *t
	m := *t.ThreadMetadata
	c.ThreadMetadata = &m
	return &c, true
}
