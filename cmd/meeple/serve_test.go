package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testPublicKey = "a7bb3bb0a3f0b5b5e1b1ff2f2ab7d5ef4b7c4d6e3f1a2b3c4d5e6f708192a3b4"

func TestHTTPConfig(t *testing.T) {
	load := configLoader(t)
	for text, want := range map[string]string{
		"[http]\nlisten = \"8080\"\n":                                                                       "public_key is not",
		"[http]\nlisten = \"8080\"\npublic_key = \"abc\"\n":                                                 "64 hexadecimal digits",
		"[http]\nlisten = \"here\"\npublic_key = \"" + testPublicKey + "\"\n":                               "not an address",
		"[http]\nlisten = \"8080\"\nmetrics = \"127.0.0.1:8080\"\npublic_key = \"" + testPublicKey + "\"\n": "same address",
		"[http]\nlisten = \"8080\"\npath = \"interactions\"\npublic_key = \"" + testPublicKey + "\"\n":      "starts with /",
		"[discord]\ngateway = false\n":                                                                      "needs the interactions endpoint",
	} {
		if _, err := load(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want an error with %q", text, err, want)
		}
	}
	c, err := load("[discord]\ngateway = false\n[http]\nlisten = \"8080\"\npublic_key = \"" + testPublicKey + "\"\nmetrics = \"0.0.0.0:9464\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if !c.Discord.gatewayOff() || c.HTTP.endpointPath() != "/interactions" {
		t.Errorf("config read as %+v", c)
	}
	for in, want := range map[string]string{"8080": "127.0.0.1:8080", ":8080": "127.0.0.1:8080", "0.0.0.0:9464": "0.0.0.0:9464", "[::1]:80": "[::1]:80"} {
		if got, err := listenAddress(in); err != nil || got != want {
			t.Errorf("listenAddress(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestTheEndpointPathIsLiteral gives [http] path values Go's router would
// read as patterns or refuse: meeple check and meeple run both say what
// is wrong (neither panics), and a good path matches only itself.
func TestTheEndpointPathIsLiteral(t *testing.T) {
	for path, want := range map[string]string{
		"/a b": `' '`, "/x/{": `'{'`, "/x/{id}": `'{'`, "/x/%7B": `'%'`, "/a//b": "empty", "/a/../b": `".."`, "/a/./b": `"."`, "//": "empty",
	} {
		config := "[http]\nlisten = \"8080\"\npath = " + tomlString(path) + "\npublic_key = \"" + testPublicKey + "\"\n"
		code, lines := checkRun(t, config, goodToken)
		if got := strings.Join(lines["config"], "\n"); code == 0 || !strings.Contains(got, "[http] path") || !strings.Contains(got, want) {
			t.Errorf("check with path %q: exit %d, %q; want a FAIL naming %s", path, code, got, want)
		}
		file := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := meeple("run", "-config", file)
		if code != 1 || !strings.Contains(stderr, "[http] path") || !strings.Contains(stderr, want) {
			t.Errorf("run with path %q: exit %d, %q", path, code, stderr)
		}
	}
	for path, other := range map[string]string{"/": "/x", "/hooks/": "/hooks/x", "/discord/interactions": "/discord/interactions/x", "/a:b@c": "/a:b@c/d"} {
		if err := literalPath(path); err != nil {
			t.Errorf("%q refused: %v", path, err)
			continue
		}
		mux := http.NewServeMux()
		mux.Handle(httpConfig{Path: path}.endpointPattern(), http.NotFoundHandler())
		for p, want := range map[string]bool{path: true, other: false} {
			if _, pattern := mux.Handler(httptest.NewRequest(http.MethodPost, p, nil)); (pattern != "") != want {
				t.Errorf("path %q: %q matched %v", path, p, pattern != "")
			}
		}
	}
}
