package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds Debian's chromium (or $MXCHECK_CHROMIUM). Without one the
// browser tests skip, except under CI=true, where they fail.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("MXCHECK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium found; CI installs Debian's chromium (apt-get install chromium)")
	}
	t.Skip("no chromium found (apt-get install chromium); the browser tests run in CI")
	return ""
}

// browser is one headless chromium tab for a test, with the console
// messages it records.
type browser struct {
	ctx     context.Context
	mu      sync.Mutex
	console []string
}

// newBrowser starts headless chromium with an empty profile and no network
// of its own; it stops with the test.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.WindowSize(1400, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	b := &browser{ctx: ctx}
	if err := chromedp.Do(ctx); err != nil { // start the browser and open the tab
		t.Fatalf("starting chromium: %v", err)
	}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m.String())
			b.mu.Unlock()
		}
	}()
	return b
}

// do runs actions with a deadline.
func (b *browser) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// text is the text content of the first element matching a CSS selector.
func text(t *testing.T, b *browser, sel string) string {
	t.Helper()
	return eval[string](t, b, `(document.querySelector(`+jsString(sel)+`) || {textContent: "<none>"}).textContent`)
}

// count is the number of elements matching a CSS selector.
func count(t *testing.T, b *browser, sel string) int {
	t.Helper()
	return eval[int](t, b, `document.querySelectorAll(`+jsString(sel)+`).length`)
}

// waitText waits until the element's text contains want.
func waitText(t *testing.T, b *browser, sel, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := text(t, b, sel)
		if strings.Contains(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %q does not contain %q", sel, got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitTrue waits up to 30 s for the JavaScript expression js to be true.
func waitTrue(t *testing.T, b *browser, js string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !eval[bool](t, b, js) {
		if time.Now().After(deadline) {
			t.Fatalf("still false after 30 s: %s", js)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkConsole asserts the page logged no error: it logs a probe error
// itself first, so a console that records nothing fails too.
func (b *browser) checkConsole(t *testing.T) {
	t.Helper()
	eval[chromedp.Void](t, b, `console.error("mxcheck-probe")`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		b.mu.Lock()
		msgs := append([]string(nil), b.console...)
		b.mu.Unlock()
		probe := false
		var bad []string
		for _, m := range msgs {
			switch {
			case strings.Contains(m, "mxcheck-probe"):
				probe = true
			case strings.HasPrefix(m, "error") || strings.HasPrefix(m, "exception") || strings.HasPrefix(m, "warning"):
				bad = append(bad, m)
			}
		}
		if probe {
			if len(bad) > 0 {
				t.Errorf("console errors: %q", bad)
			}
			b.mu.Lock()
			b.console = nil
			b.mu.Unlock()
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the console recorder saw nothing (not even the probe)")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// artifact writes a test artifact (a screenshot) to $MXCHECK_ARTIFACTS, or
// to a directory under the system's temporary directory, and logs where.
func artifact(t *testing.T, name string, data []byte) string {
	t.Helper()
	dir := os.Getenv("MXCHECK_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "mxcheck-artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("artifact: %s", path)
	return path
}
