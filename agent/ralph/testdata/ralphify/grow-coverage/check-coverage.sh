#!/bin/sh
echo "coverage: 42%"
