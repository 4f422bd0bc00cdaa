package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// testServer serves a copy of two stored traces (and a malformed file)
// with the explorer on RA with one churned entry.
func testServer(t *testing.T, extra ...string) (*httptest.Server, string) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"ra/churn-1.itf.json", "ra/asymmetric-ignorance.itf.json"} {
		data, err := os.ReadFile(filepath.Join("../../counterexamples", name))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, "ra"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "broken.itf.json"), []byte("{not json"), 0o644)
	// A secret next to the directory, and a link to it inside.
	os.WriteFile(filepath.Join(filepath.Dir(dir), "secret.itf.json"), []byte("secret"), 0o644)
	os.Symlink(filepath.Join(filepath.Dir(dir), "secret.itf.json"), filepath.Join(dir, "link.itf.json"))
	args := append([]string{dir}, extra...)
	srv, _, help, err := newServerFromArgs(args, io.Discard)
	if err != nil || help {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.handler())
	t.Cleanup(ts.Close)
	return ts, dir
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestServeList: the index lists every trace with its spec, property and
// length, and each opens as its page.
func TestServeList(t *testing.T) {
	ts, _ := testServer(t)
	code, body := get(t, ts.URL+"/")
	if code != 200 || strings.Count(body, `class="trace"`) != 2 || !strings.Contains(body, "mutual-exclusion</td><td>invariant</td><td>11<") {
		t.Fatalf("index: %d\n%s", code, body)
	}
	if !strings.Contains(body, "broken.itf.json") || !strings.Contains(body, "not an ITF trace") {
		t.Errorf("index hides the malformed file")
	}
	if strings.Contains(body, "link.itf.json") {
		t.Errorf("index lists a symbolic link")
	}
	code, body = get(t, ts.URL+"/trace/ra/churn-1.itf.json")
	if code != 200 || !strings.Contains(body, `id="trace-data"`) || strings.Count(body, `class="lifeline" data-node=`) != 3 {
		t.Errorf("trace page: %d", code)
	}
}

// TestServeBadRequests: 4xx with a message, never a crash, never a file
// outside the directory.
func TestServeBadRequests(t *testing.T) {
	ts, _ := testServer(t, "--spec", "ra", "--churn", "1")
	for _, c := range []struct {
		path string
		code int
		msg  string
	}{
		{"/trace/../secret.itf.json", 404, ""},
		{"/trace/%2e%2e/secret.itf.json", 404, "no such trace"},
		{"/trace/..%2fsecret.itf.json", 404, "no such trace"},
		{"/trace/link.itf.json", 404, "no such trace"},
		{"/trace/ra/../../secret.itf.json", 404, ""},
		{"/trace//etc/passwd", 404, ""},
		{"/trace/nothing.itf.json", 404, "no such trace"},
		{"/trace/broken.itf.json", 422, "not an ITF trace"},
		{"/nowhere", 404, "no such page"},
		{"/api/state?path=x", 400, `"x" is not a step index`},
		{"/api/state?path=99", 400, "successor 99"},
		{"/api/state?path=0.-1", 400, "not a step index"},
		{"/path?path=0.99", 400, "successor 99"},
		{"/path?path=a", 400, "not a step index"},
		{"/api/state?path=" + strings.Repeat("0.", maxPath) + "0", 400, "longer than"},
		{"/api/trace/ra/asymmetric-ignorance.itf.json", 400, "not a trace of this configuration"},
		{"/api/trace/../secret.itf.json", 404, ""},
	} {
		req, _ := http.NewRequest("GET", ts.URL+c.path, nil)
		req.URL.Opaque = strings.TrimPrefix(strings.SplitN(c.path, "?", 2)[0], "")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || !strings.Contains(string(body), c.msg) {
			t.Errorf("GET %s: %d %q, want %d %q", c.path, resp.StatusCode, body, c.code, c.msg)
		}
		if strings.TrimSpace(string(body)) == "secret" {
			t.Errorf("GET %s served a file outside the directory", c.path)
		}
	}
	resp, err := http.Post(ts.URL+"/trace/ra/churn-1.itf.json", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 {
		t.Errorf("POST: %d, want 405", resp.StatusCode)
	}
	plain, _ := testServer(t)
	if code, body := get(t, plain.URL+"/api/state"); code != 404 || !strings.Contains(body, "--spec") {
		t.Errorf("explorer without a spec: %d %q", code, body)
	}
}

// TestServeAPI: the explorer's state, the stored trace and a fresh search
// as paths, and the violation at the end of them.
func TestServeAPI(t *testing.T) {
	ts, _ := testServer(t, "--spec", "ra", "--churn", "1")
	var st apiState
	code, body := get(t, ts.URL+"/api/state")
	if code != 200 || json.Unmarshal([]byte(body), &st) != nil || len(st.Path) != 0 || len(st.Steps) != 9 || len(st.Violates) != 0 {
		t.Fatalf("initial state: %d %s", code, body)
	}
	if st.Steps[0].Label != "n0 RequestCS" || st.Steps[0].Kind != "env" || len(st.Steps[0].Changes) == 0 || !strings.HasPrefix(st.Steps[0].State[0], "n0: State=WANTED") {
		t.Errorf("first step %+v", st.Steps[0])
	}
	var stored, fresh findResult
	_, body = get(t, ts.URL+"/api/trace/ra/churn-1.itf.json")
	json.Unmarshal([]byte(body), &stored)
	_, body = get(t, ts.URL+"/api/find")
	json.Unmarshal([]byte(body), &fresh)
	if !stored.Found || len(stored.Path) != 11 || !fresh.Found || len(fresh.Path) != 11 || fresh.Property != "mutual-exclusion" {
		t.Fatalf("stored %+v, fresh %+v", stored, fresh)
	}
	for _, p := range [][]int{stored.Path, fresh.Path} {
		q := make([]string, len(p))
		for i, k := range p {
			q[i] = strconv.Itoa(k)
		}
		_, body = get(t, ts.URL+"/api/state?path="+strings.Join(q, "."))
		var end apiState
		json.Unmarshal([]byte(body), &end)
		if len(end.Violates) != 1 || end.Violates[0] != "mutual-exclusion" || len(end.Trail) != 11 || len(end.InCS) != 2 {
			t.Errorf("end of path %v: %s", p, body)
		}
	}
}

// TestServeUsage: bad command lines get one line and exit 2.
func TestServeUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"serve", "/no/such/dir"}, "is not a directory"},
		{[]string{"serve", "a", "b"}, "at most one directory"},
		{[]string{"serve", "--spec", "nope"}, `unknown spec "nope"`},
		{[]string{"serve", "--spec", "ra", "--nodes", "99"}, "nodes"},
		{[]string{"serve", "--bogus"}, "unknown flag"},
		{[]string{"serve", "--addr", "256.0.0.1:1", "../../counterexamples"}, "serve:"},
	} {
		code, _, errs := call(c.args...)
		if code != 2 || !strings.Contains(errs, c.msg) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.msg)
		}
	}
	if code, out, _ := call("serve", "--help"); code != 0 || !strings.Contains(out, "--addr") {
		t.Errorf("serve --help: %d %s", code, out)
	}
}
