// SPDX-License-Identifier: GPL-2.0-only
#include "reports/render/html-common.h"

const char html_style[] =
	"body{font-family:sans-serif;margin:1.5em;max-width:1000px;color:#222}"
	"table{border-collapse:collapse;font-size:13px}"
	"td,th{border:1px solid #ccc;padding:2px 6px}"
	"td.n{text-align:right;font-family:monospace}"
	".flag,.warn{color:#b00;font-weight:bold}"
	"svg text{font-family:sans-serif;font-size:12px}"
	"h2{font-size:1.1em;margin-top:1.5em}";
