package interactions

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// testKey is the application's key pair, made in the test.
var testKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))

// otherKey signs forgeries.
var otherKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, ed25519.SeedSize))

var testNow = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// fixture is an endpoint on a test server with a scripted handler.
type fixture struct {
	t      *testing.T
	srv    *httptest.Server
	ep     *Endpoint
	mu     sync.Mutex
	calls  int
	counts map[string]int
}

func newFixture(t *testing.T, handle Handler, tune func(*Options)) *fixture {
	t.Helper()
	f := &fixture{t: t, counts: map[string]int{}}
	o := Options{
		PublicKey: testKey.Public().(ed25519.PublicKey),
		Handler: func(ctx context.Context, i *discordgo.Interaction, a *Answer) {
			f.mu.Lock()
			f.calls++
			f.mu.Unlock()
			handle(ctx, i, a)
		},
		Now: func() time.Time { return testNow },
		Count: func(result string) {
			f.mu.Lock()
			f.counts[result]++
			f.mu.Unlock()
		},
	}
	if tune != nil {
		tune(&o)
	}
	ep, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	f.ep = ep
	f.srv = httptest.NewUnstartedServer(nil)
	f.srv.Config = ep.Server("")
	f.srv.Start()
	t.Cleanup(func() {
		f.srv.Close()
		ep.Close()
	})
	return f
}

func (f *fixture) handlerCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// signed returns a POST of body signed with key at time at.
func (f *fixture) signed(key ed25519.PrivateKey, at time.Time, body []byte) *http.Request {
	stamp := strconv.FormatInt(at.Unix(), 10)
	req, err := http.NewRequest(http.MethodPost, f.srv.URL, bytes.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature-Timestamp", stamp)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(stamp), body...))))
	return req
}

// do sends req and returns the status and body.
func (f *fixture) do(req *http.Request) (int, string) {
	f.t.Helper()
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func command(id string) []byte {
	return []byte(fmt.Sprintf(`{"id":%q,"application_id":"9000","type":2,"token":"tok%s","version":1,"channel_id":"8001","guild_id":"7000",`+
		`"member":{"user":{"id":"101","username":"alice"}},"data":{"id":"1","name":"game","type":1}}`, id, id))
}

func answerWith(content string) Handler {
	return func(_ context.Context, _ *discordgo.Interaction, a *Answer) {
		_ = a.Respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: content, Flags: discordgo.MessageFlagsEphemeral}})
	}
}

func TestAPingIsAnsweredWithAPong(t *testing.T) {
	f := newFixture(t, answerWith("never"), nil)
	status, body := f.do(f.signed(testKey, testNow, []byte(`{"id":"1","application_id":"9000","type":1,"token":"t","version":1}`)))
	if status != http.StatusOK || strings.TrimSpace(body) != `{"type":1}` {
		t.Fatalf("PING: %d %s", status, body)
	}
	if f.handlerCalls() != 0 {
		t.Error("a PING reached the handler")
	}
}

func TestTheHandlersAnswerIsTheReply(t *testing.T) {
	f := newFixture(t, answerWith("hello"), nil)
	status, body := f.do(f.signed(testKey, testNow, command("11")))
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	var resp struct {
		Type int `json:"type"`
		Data struct {
			Content string `json:"content"`
			Flags   int    `json:"flags"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Type != 4 || resp.Data.Content != "hello" || resp.Data.Flags != 64 {
		t.Errorf("reply %s", body)
	}
}

func TestAnAnswerThroughTheCallbackIsAccepted(t *testing.T) {
	f := newFixture(t, func(_ context.Context, _ *discordgo.Interaction, a *Answer) { a.Accepted() }, nil)
	if status, body := f.do(f.signed(testKey, testNow, command("12"))); status != http.StatusAccepted || body != "" {
		t.Fatalf("got %d %q, want 202 and no body", status, body)
	}
}

func TestRequestsThatAreNotDiscordsAreRefused(t *testing.T) {
	f := newFixture(t, answerWith("x"), func(o *Options) { o.MaxBody = 4096 })
	body := command("21")
	cases := []struct {
		name   string
		req    func() *http.Request
		status int
		count  string
	}{
		{"unsigned", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, f.srv.URL, bytes.NewReader(body))
			return r
		}, 401, "unsigned"},
		{"no timestamp", func() *http.Request {
			r := f.signed(testKey, testNow, body)
			r.Header.Del("X-Signature-Timestamp")
			return r
		}, 401, "unsigned"},
		{"signature not hex", func() *http.Request {
			r := f.signed(testKey, testNow, body)
			r.Header.Set("X-Signature-Ed25519", "zz")
			return r
		}, 401, "unsigned"},
		{"signed by another key", func() *http.Request { return f.signed(otherKey, testNow, body) }, 401, "forged"},
		{"body changed after signing", func() *http.Request {
			r := f.signed(testKey, testNow, body)
			r.Body = io.NopCloser(bytes.NewReader(bytes.Replace(body, []byte("101"), []byte("102"), 1)))
			return r
		}, 401, "forged"},
		{"timestamp changed after signing", func() *http.Request {
			r := f.signed(testKey, testNow, body)
			r.Header.Set("X-Signature-Timestamp", strconv.FormatInt(testNow.Unix()+1, 10))
			return r
		}, 401, "forged"},
		{"signed long ago", func() *http.Request { return f.signed(testKey, testNow.Add(-DefaultMaxAge-time.Second), command("22")) }, 401, "stale"},
		{"signed in the future", func() *http.Request { return f.signed(testKey, testNow.Add(DefaultMaxAge+time.Second), command("23")) }, 401, "stale"},
		{"oversized", func() *http.Request {
			big := bytes.Replace(command("24"), []byte(`"version":1`), []byte(`"version":1,"pad":"`+strings.Repeat("x", 5000)+`"`), 1)
			return f.signed(testKey, testNow, big)
		}, 413, "too_large"},
		{"not JSON", func() *http.Request { return f.signed(testKey, testNow, []byte("hello")) }, 400, "bad_request"},
		{"GET", func() *http.Request {
			r := f.signed(testKey, testNow, nil)
			r.Method = http.MethodGet
			return r
		}, 405, "method"},
	}
	for _, c := range cases {
		resp, err := f.srv.Client().Do(c.req())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.status)
		}
		if allow := resp.Header.Get("Allow"); c.status == http.StatusMethodNotAllowed && allow != http.MethodPost {
			t.Errorf("%s: Allow %q, want POST", c.name, allow)
		}
	}
	if n := f.handlerCalls(); n != 0 {
		t.Errorf("the handler ran %d times for requests it should never see", n)
	}
	for _, c := range cases {
		if f.counts[c.count] == 0 {
			t.Errorf("%s: not counted as %q (%v)", c.name, c.count, f.counts)
		}
	}
}

// TestATooLargeLengthIsRefusedBeforeTheBody declares a body over the
// limit and sends none of it: the answer comes at once, not after the
// body was read.
func TestATooLargeLengthIsRefusedBeforeTheBody(t *testing.T) {
	f := newFixture(t, answerWith("x"), func(o *Options) { o.MaxBody = 4096 })
	conn, err := net.Dial("tcp", f.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	head := "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\nX-Signature-Timestamp: 1\r\nX-Signature-Ed25519: " + strings.Repeat("ab", ed25519.SignatureSize) + "\r\n\r\n"
	if _, err := conn.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	// a bound so that a server that waits for the body fails the test
	// rather than hang it (its read timeout is 10 s)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer before the body: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413", resp.StatusCode)
	}
}

// TestUnverifiedBodiesHaveABudget holds two half-sent bodies that take the
// whole budget of unverified bytes: a third request gets 503 rather than
// more memory, and once the two are gone requests are taken again.
func TestUnverifiedBodiesHaveABudget(t *testing.T) {
	const size = 4096
	stamp := strconv.FormatInt(testNow.Unix(), 10)
	f := newFixture(t, answerWith("x"), func(o *Options) {
		o.MaxBody = size
		o.MaxUnverified = 2 * (size + int64(len(stamp)))
	})
	var holders []net.Conn
	for range 2 {
		conn, err := net.Dial("tcp", f.srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		head := fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nX-Signature-Timestamp: %s\r\nX-Signature-Ed25519: %s\r\n\r\n%s",
			size, stamp, strings.Repeat("ab", ed25519.SignatureSize), strings.Repeat("x", size/2))
		if _, err := conn.Write([]byte(head)); err != nil {
			t.Fatal(err)
		}
		holders = append(holders, conn)
	}
	for f.ep.bodies.TryAcquire(1) { // until both hold their room
		f.ep.bodies.Release(1)
		runtime.Gosched()
	}
	if status, _ := f.do(f.signed(testKey, testNow, command("25"))); status != http.StatusServiceUnavailable {
		t.Errorf("a request past the budget: status %d, want 503", status)
	}
	if f.counts["busy"] != 1 {
		t.Errorf("counts %v, want one busy", f.counts)
	}
	for _, c := range holders {
		c.Close()
	}
	for !f.ep.bodies.TryAcquire(f.ep.opts.MaxUnverified) { // until both let go
		runtime.Gosched()
	}
	f.ep.bodies.Release(f.ep.opts.MaxUnverified)
	if status, _ := f.do(f.signed(testKey, testNow, command("26"))); status != http.StatusOK {
		t.Errorf("once the budget is free again: status %d, want 200", status)
	}
}

func TestAReplayedRequestIsRefused(t *testing.T) {
	f := newFixture(t, answerWith("once"), nil)
	body := command("31")
	if status, _ := f.do(f.signed(testKey, testNow, body)); status != http.StatusOK {
		t.Fatalf("first delivery: %d", status)
	}
	// the same signed bytes again, and the same interaction signed anew
	for n, req := range []*http.Request{f.signed(testKey, testNow, body), f.signed(testKey, testNow.Add(time.Second), body)} {
		if status, _ := f.do(req); status != http.StatusUnauthorized {
			t.Errorf("replay %d: status %d, want 401", n, status)
		}
	}
	if f.handlerCalls() != 1 || f.counts["replayed"] != 2 {
		t.Errorf("handler ran %d times; counts %v", f.handlerCalls(), f.counts)
	}
}

func TestNoAnswerInTimeIsA503AndLateAnswersAreRefused(t *testing.T) {
	release := make(chan struct{})
	late := make(chan error, 1)
	f := newFixture(t, func(_ context.Context, _ *discordgo.Interaction, a *Answer) {
		<-release
		late <- a.Respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
	}, func(o *Options) { o.Wait = 20 * time.Millisecond })
	if status, _ := f.do(f.signed(testKey, testNow, command("41"))); status != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", status)
	}
	close(release)
	if err := <-late; !errors.Is(err, ErrGone) {
		t.Errorf("a late answer: %v, want ErrGone", err)
	}
	silent := newFixture(t, func(context.Context, *discordgo.Interaction, *Answer) {}, nil)
	if status, _ := silent.do(silent.signed(testKey, testNow, command("42"))); status != http.StatusServiceUnavailable {
		t.Errorf("a handler that never answers: status %d, want 503", status)
	}
}

func TestASecondAnswerIsRefused(t *testing.T) {
	second := make(chan error, 1)
	f := newFixture(t, func(_ context.Context, _ *discordgo.Interaction, a *Answer) {
		_ = a.Respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
		second <- a.Respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
	}, nil)
	if status, _ := f.do(f.signed(testKey, testNow, command("51"))); status != http.StatusOK {
		t.Fatalf("status %d", status)
	}
	if err := <-second; !errors.Is(err, ErrGone) {
		t.Errorf("second answer: %v", err)
	}
}

// TestSlowClientsAreCutOff sends a request's headers, or its headers and
// half its body, and then nothing: the server closes the connection when
// its read timeout passes, and the handler never runs.
func TestSlowClientsAreCutOff(t *testing.T) {
	short := Timeouts{ReadHeader: 100 * time.Millisecond, Read: 200 * time.Millisecond, Write: time.Second, Idle: time.Second}
	f := newFixture(t, answerWith("x"), func(o *Options) { o.Timeouts = short })
	body := command("61")
	stamp := strconv.FormatInt(testNow.Unix(), 10)
	sig := hex.EncodeToString(ed25519.Sign(testKey, append([]byte(stamp), body...)))
	head := fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\nX-Signature-Timestamp: %s\r\nX-Signature-Ed25519: %s\r\n\r\n", len(body), stamp, sig)
	for _, partial := range []string{head[:40], head + string(body[:len(body)/2])} {
		conn, err := net.Dial("tcp", f.srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Write([]byte(partial)); err != nil {
			t.Fatal(err)
		}
		// a bound so that a server that never cuts off fails the test
		// rather than hang it; the cut comes after the 200 ms timeout
		_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		got, err := io.ReadAll(conn)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("a slow request (%d bytes of %d) kept its connection open", len(partial), len(head)+len(body))
		}
		if strings.Contains(string(got), "200 OK") {
			t.Errorf("a slow request was answered: %q", got)
		}
		conn.Close()
	}
	// a body half sent, then the client's side of the connection closed
	conn, err := net.Dial("tcp", f.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(head + string(body[:len(body)/2]))); err != nil {
		t.Fatal(err)
	}
	conn.(*net.TCPConn).CloseWrite()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	if got, _ := io.ReadAll(conn); !strings.Contains(string(got), "400") {
		t.Errorf("a half-sent request was answered %q", got)
	}
	if f.handlerCalls() != 0 {
		t.Error("a slow request reached the handler")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.counts["incomplete"] != 2 || f.counts["bad_request"] != 0 {
		t.Errorf("a slow and a half-sent body counted as %v; want 2 incomplete, apart from bad requests", f.counts)
	}
}

func TestShutdownLetsTheAnswerInFlightGoOut(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	f := newFixture(t, func(ctx context.Context, i *discordgo.Interaction, a *Answer) {
		close(started)
		<-release
		answerWith("finished")(ctx, i, a)
	}, nil)
	done := make(chan string, 1)
	go func() {
		_, body := f.do(f.signed(testKey, testNow, command("71")))
		done <- body
	}()
	<-started
	shut := make(chan error, 1)
	go func() { shut <- f.srv.Config.Shutdown(context.Background()) }()
	close(release)
	if body := <-done; !strings.Contains(body, "finished") {
		t.Errorf("the answer in flight was lost: %q", body)
	}
	if err := <-shut; err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

func TestParsePublicKey(t *testing.T) {
	pub := testKey.Public().(ed25519.PublicKey)
	got, err := ParsePublicKey(hex.EncodeToString(pub))
	if err != nil || !bytes.Equal(got, pub) {
		t.Errorf("ParsePublicKey: %x, %v", got, err)
	}
	for _, bad := range []string{"", "abc", strings.Repeat("g", 64), strings.Repeat("a", 62)} {
		if _, err := ParsePublicKey(bad); err == nil {
			t.Errorf("ParsePublicKey(%q) accepted", bad)
		}
	}
}

// BenchmarkEndpoint takes signed interactions as Discord sends them (a
// component click on a board message of about 3 KB) and replies with the
// handler's update: signature, timestamp, replay check, decoding and the
// reply, without the network.
func BenchmarkEndpoint(b *testing.B) {
	ep, err := New(Options{
		PublicKey: testKey.Public().(ed25519.PublicKey),
		Handler: func(_ context.Context, _ *discordgo.Interaction, a *Answer) {
			_ = a.Respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
		},
	})
	if err != nil {
		b.Fatal(err)
	}
	defer ep.Close()
	board := strings.Repeat("a line of the board's text ", 100)
	b.ReportAllocs()
	for n := 0; b.Loop(); n++ {
		body := []byte(fmt.Sprintf(`{"id":"%d","application_id":"9000","type":3,"token":"t%d","version":1,"channel_id":"8001","guild_id":"7000",`+
			`"member":{"user":{"id":"101","username":"alice"}},"message":{"id":"5","channel_id":"8001","content":%q},"data":{"custom_id":"m1:1:2:act:0","component_type":2}}`, n, n, board))
		stamp := strconv.FormatInt(time.Now().Unix(), 10)
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("X-Signature-Timestamp", stamp)
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(testKey, append([]byte(stamp), body...))))
		rec := httptest.NewRecorder()
		ep.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
