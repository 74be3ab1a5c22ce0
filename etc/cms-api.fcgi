#!/bin/sh
# cms-api.fcgi: starts cms-api for mod_fcgid on shared hosting (see
# htaccess-cms-api). Put it in public_html/ next to the .htaccess, mode
# 0755; it runs ../cms-api/cms-api with ../cms-api/cms-api.ini, both
# relative to public_html/, so it needs no editing for that layout.
# mod_fcgid hands the FastCGI socket over as standard input, which exec
# keeps.
here=$(dirname "$0")
exec "$here/../cms-api/cms-api" -c "$here/../cms-api/cms-api.ini"
