#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# t0710 on a 3-level PGFT with 3 of 8 pods: IBFT(8,3)'s pods (4 hosts per
# leaf, 4 leaves and 4 middle switches per pod, 16 tops), 3 bought. Today's
# IBFT path saw 5 of its 8 pods as a degraded tree with faults; it is the
# planned shape: no fault line, routed at LMC 4.
export PGFT_ARGS="--m 4,4,3 --w 1,4,4 --p 1,1,1"
export PGFT_NAME='PGFT\(3; 4,4,3; 1,4,4; 1,1,1\): 40 switches, 48 end ports, LMC in use 4 \(needs 4\)'
export PGFT_LMC=4
export PGFT_A2A=47
exec bash "$(dirname "$0")/t0710-cyclic-pgft-live.sh"
