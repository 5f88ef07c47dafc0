#!/usr/bin/env bash
# make test-gpu: lab 05 built without its n (or m) predicate must fail its
# device check, naming the guard band (the check itself is
# tests/checks/75_predication_guard.sh; on a GPU it runs the device part).
cd "$(dirname "$0")/../.." && exec tests/checks/75_predication_guard.sh
