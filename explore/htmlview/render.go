package htmlview

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"html/template"
	"io"
)

var (
	//go:embed assets/page.html
	pageHTML string
	//go:embed assets/page.css
	pageCSS string
	//go:embed assets/page.js
	pageJS string
)

var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// view is what the template sees.
type view struct {
	*Page
	Diagram template.HTML
	GraphSV template.HTML
	Data    template.JS
	CSS     template.CSS
	JS      template.JS
	Last    int
}

// Write renders p as one self-contained HTML page: no external URL, the
// style and script inline, the data in a <script type="application/json">
// block. It returns the first write error.
func Write(w io.Writer, p *Page) error {
	data, err := json.Marshal(p) // escapes <, > and & so the block cannot end early
	if err != nil {
		return err
	}
	v := view{Page: p, Diagram: template.HTML(Diagram(p)), Data: template.JS(data),
		CSS: template.CSS(pageCSS), JS: template.JS(pageJS), Last: len(p.Steps) - 1}
	if p.Graph != nil {
		v.GraphSV = template.HTML(GraphSVG(p.Graph))
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, v); err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}
