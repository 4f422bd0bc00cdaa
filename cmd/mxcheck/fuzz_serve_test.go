package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzServe: any request path and query to serve's handler (traces, the
// explorer's API, pages) gets a 2xx, 3xx or 4xx answer, never a 5xx or a
// panic, and never the content of a file outside the served directory.
func FuzzServe(f *testing.F) {
	dir := f.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "counterexamples", "ra", "churn-1.itf.json"))
	if err != nil {
		f.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "served", "ra"), 0o755)
	os.WriteFile(filepath.Join(dir, "served", "ra", "churn-1.itf.json"), data, 0o644)
	os.WriteFile(filepath.Join(dir, "secret.itf.json"), []byte("TOPSECRET"), 0o644)
	srv, _, _, err := newServerFromArgs([]string{filepath.Join(dir, "served"), "--spec", "ra", "--churn", "1", "--max-states", "20000"}, io.Discard)
	if err != nil {
		f.Fatal(err)
	}
	h := srv.handler()
	for _, s := range []string{"/", "/trace/ra/churn-1.itf.json", "/trace/../secret.itf.json", "/api/state?path=0,1,2",
		"/api/state?path=99", "/api/find", "/api/trace/ra/churn-1.itf.json", "/path?path=0,1", "/explore", "/api/state?path=-1,a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n\t#") || len(target) > 2048 {
			return // not a request line a client can send
		}
		req, err := http.NewRequest("GET", "http://127.0.0.1"+target, nil)
		if err != nil {
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("GET %s: %d %s", target, rec.Code, rec.Body.String())
		}
		if strings.Contains(rec.Body.String(), "TOPSECRET") {
			t.Fatalf("GET %s served a file outside the directory", target)
		}
	})
}
