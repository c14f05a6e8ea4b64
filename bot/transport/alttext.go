package transport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// MaxAltText is Discord's limit on an attachment's description, the alt
// text screen readers read and clients show.
const MaxAltText = 1024

// describedUpload is Discord's MessageAttachmentRequest for the image a
// request uploads as files[0], with its alt text: discordgo's
// MessageAttachment has no description.
type describedUpload struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description"`
}

// described reports whether m's image goes out with alt text.
func (m Message) described() bool { return m.Image != nil && m.Alt != "" }

// raw reports whether an edit of m must go out as describedCall writes
// it: its image has alt text, or it is a card, whose flag discordgo's
// WebhookEdit cannot carry.
func (m Message) raw() bool { return m.described() || m.Card }

// describedCall sends payload (the JSON discordgo would send for m: a
// MessageSend, WebhookParams or WebhookEdit) with what discordgo's types
// cannot say: m's image described (the payload's attachments become the
// image alone, with m.Alt as its description), and a card's flag. It is
// the request discordgo makes for the same payload (multipart with a file,
// else JSON): the same route and rate-limit bucket, through the same
// client, so the call is paced and counted like every other.
func describedCall(s *discordgo.Session, method, uri string, payload any, m Message) (*discordgo.Message, error) {
	raw, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers pass through as written
	var fields map[string]any
	if err := dec.Decode(&fields); err != nil {
		return nil, err
	}
	if m.described() {
		fields["attachments"] = []describedUpload{{ID: "0", Filename: ImageName, Description: m.Alt}}
	}
	if m.Card {
		flags, _ := strconv.ParseInt(fmt.Sprint(fields["flags"]), 10, 64)
		fields["flags"] = discordgo.MessageFlags(flags) | discordgo.MessageFlagsIsComponentsV2
	}
	var resp []byte
	if m.Image != nil {
		contentType, body, err := discordgo.MultipartBodyWithJSON(fields, m.files())
		if err != nil {
			return nil, err
		}
		resp, err = s.RequestRaw(method, uri, contentType, body, uri, 0)
		if err != nil {
			return nil, err
		}
	} else if resp, err = s.RequestWithBucketID(method, uri, fields, uri); err != nil {
		return nil, err
	}
	var sent discordgo.Message
	if err := json.Unmarshal(resp, &sent); err != nil {
		return nil, err
	}
	return &sent, nil
}
