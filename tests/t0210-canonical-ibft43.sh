#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Canonical labels: a shuffled IBFT(4,3) routed by cyclic (lmc 2); the tool
# fed with ibnetdiscover output predicts the switches' LFTs and MFTs exactly
# (tests/canon.sh).
. "$(dirname "$0")/sim.sh"
. "$(dirname "$0")/mcast.sh"
. "$(dirname "$0")/canon.sh"
sim_require
sim_setup
plan 14
canon_run 4 3 2 11
done_testing
