#!/bin/sh
# Generates ./configure from configure.ac (needs autoconf, automake, pkgconf).
set -e
cd "$(dirname "$0")"
autoreconf -fi
