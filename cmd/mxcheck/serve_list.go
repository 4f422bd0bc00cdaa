package main

import (
	"bytes"
	"html/template"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mxcheck/mxcheck/explore"
	"github.com/mxcheck/mxcheck/explore/htmlview"
	"github.com/mxcheck/mxcheck/model"
)

// server is mxcheck serve: the stored traces under dir and, with a spec, an
// interactive explorer of one configuration.
type server struct {
	dir       string
	maxStates int
	timeout   time.Duration

	// Interactive mode (nil spec: off).
	spec   *model.Spec
	values model.Values
	sys    model.System

	findMu sync.Mutex // one search for a counterexample at a time
	found  *findResult
}

// listed is one stored trace as the index lists it.
type listed struct {
	// Name is the path under the directory, with forward slashes.
	Name                 string
	Spec, Property, Kind string
	Length               int
	// Error says why the file is not a readable trace.
	Error string
	// Matches says the trace belongs to the interactive configuration.
	Matches bool
}

// scan lists the regular files named *.itf.json under s.dir, sorted by
// name. Only files it lists are ever served.
func (s *server) scan() ([]listed, error) {
	var out []listed
	err := filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(path, ".itf.json") {
			return nil
		}
		rel, err := filepath.Rel(s.dir, path)
		if err != nil {
			return err
		}
		out = append(out, s.describe(filepath.ToSlash(rel), path))
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, err
}

// describe reads a trace's metadata for the index.
func (s *server) describe(name, path string) listed {
	e := listed{Name: name}
	f, err := os.Open(path)
	if err != nil {
		e.Error = "cannot open"
		return e
	}
	defer f.Close()
	t, err := explore.ReadITF(f)
	if err != nil {
		e.Error = err.Error()
		return e
	}
	kind, _ := t.Meta.Kind.MarshalText() // the file's own word: "invariant", ...
	e.Spec, e.Property, e.Kind, e.Length = t.Meta.Spec, t.Meta.Property, string(kind), len(t.States)-1
	e.Matches = s.matches(t)
	return e
}

// matches reports whether trace t is of the interactive configuration.
func (s *server) matches(t *explore.ITFTrace) bool {
	if s.spec == nil || t.Meta.Spec != s.spec.Name {
		return false
	}
	ta, err1 := s.spec.Bind(t.Meta.Params)
	sa, err2 := s.spec.Bind(s.values)
	if err1 != nil || err2 != nil {
		return false
	}
	a, b := ta.Values(), sa.Values()
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// lookup returns the listed trace called name and its path on disk, or
// ok=false: names are only ever looked up in the listing, never joined to
// the directory as given, so nothing outside it can be reached.
func (s *server) lookup(name string) (string, listed, bool) {
	all, err := s.scan()
	if err != nil {
		return "", listed{}, false
	}
	for _, e := range all {
		if e.Name == name {
			return filepath.Join(s.dir, filepath.FromSlash(e.Name)), e, true
		}
	}
	return "", listed{}, false
}

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /trace/{name...}", s.trace)
	mux.HandleFunc("GET /explore", s.explorePage)
	mux.HandleFunc("GET /path", s.pathPage)
	mux.HandleFunc("GET /api/state", s.apiState)
	mux.HandleFunc("GET /api/find", s.apiFind)
	mux.HandleFunc("GET /api/trace/{name...}", s.apiTrace)
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			httpError(w, http.StatusMethodNotAllowed, r.Method+" is not allowed: serve only answers GET")
			return
		}
		httpError(w, http.StatusNotFound, "no such page: "+r.URL.Path+" (the index is /)")
	})
	return mux
}

// httpError answers with a status and a one-line message.
func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	w.Write([]byte(msg + "\n"))
}

var indexTemplate = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>mxcheck traces: {{.Dir}}</title>
<style>
body { font: 14px/1.5 system-ui, sans-serif; margin: 20px; color: #1d232a; }
table { border-collapse: collapse; } td, th { padding: 3px 12px 3px 0; text-align: left; }
th { border-bottom: 1px solid #c7ccd1; } tr:hover td { background: #f3f6fa; }
code { font-family: ui-monospace, monospace; } .err { color: #cf222e; } .muted { color: #66707a; }
</style></head><body>
<h1>mxcheck traces under <code>{{.Dir}}</code></h1>
{{if .Spec}}<p><a id="explore-link" href="/explore">explore <b>{{.Spec}}</b> interactively</a> <span class="muted">{{.Flags}}</span></p>{{end}}
<table id="traces"><thead><tr><th>trace</th><th>spec</th><th>property</th><th>kind</th><th>steps</th>{{if .Spec}}<th></th>{{end}}</tr></thead><tbody>
{{range .Traces}}<tr>{{if .Error}}<td><code>{{.Name}}</code></td><td colspan="4" class="err">{{.Error}}</td>
{{else}}<td><a class="trace" href="/trace/{{.Name}}"><code>{{.Name}}</code></a></td><td>{{.Spec}}</td><td>{{.Property}}</td><td>{{.Kind}}</td><td>{{.Length}}</td>{{if $.Spec}}<td>{{if .Matches}}<a href="/explore#trace={{.Name}}">step through in the explorer</a>{{end}}</td>{{end}}{{end}}</tr>
{{else}}<tr><td colspan="5" class="muted">no *.itf.json files</td></tr>{{end}}
</tbody></table></body></html>
`))

func (s *server) index(w http.ResponseWriter, r *http.Request) {
	all, err := s.scan()
	if err != nil {
		httpError(w, http.StatusInternalServerError, "cannot list "+s.dir+": "+err.Error())
		return
	}
	data := struct {
		Dir, Spec, Flags string
		Traces           []listed
	}{Dir: s.dir, Traces: all}
	if s.spec != nil {
		data.Spec, data.Flags = s.spec.Name, strings.Join(s.values.Flags(s.spec), " ")
	}
	var b bytes.Buffer
	if err := indexTemplate.Execute(&b, data); err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// trace serves the page of one listed trace.
func (s *server) trace(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	path, e, ok := s.lookup(name)
	if !ok {
		httpError(w, http.StatusNotFound, "no such trace: "+name+" (the index / lists them)")
		return
	}
	if e.Error != "" {
		httpError(w, http.StatusUnprocessableEntity, name+": "+e.Error)
		return
	}
	p, err := tracePage(path)
	if err != nil {
		httpError(w, http.StatusUnprocessableEntity, name+": "+err.Error())
		return
	}
	var b bytes.Buffer
	if err := htmlview.Write(&b, p); err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}
