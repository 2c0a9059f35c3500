#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what is missing, build, and run the main job end to end:
# collect wake latency on this machine -> analyze stats -> HTML report.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"

run=runs/quickstart-$(date +%Y%m%d-%H%M%S)
mkdir -p runs
./build/collect/collect -c "${DATAPOINTS:-3000}" -o "$run"
./build/analyze/analyze stats "$run"
./build/report/report "$run" -o "$run-report"
echo "quickstart: report at $PWD/$run-report/index.html"
