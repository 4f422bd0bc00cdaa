module github.com/mxcheck/mxcheck

go 1.26.8

require (
	github.com/cespare/xxhash/v2 v2.3.0
	github.com/chromedp/chromedp v0.23.0
	github.com/dominikbraun/graph v0.23.0
	github.com/spf13/pflag v1.0.10
)

require github.com/anishathalye/porcupine v1.3.1

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
)
