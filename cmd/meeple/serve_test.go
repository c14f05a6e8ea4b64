package main

import (
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
