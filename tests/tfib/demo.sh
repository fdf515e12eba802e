#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo's short FIB run: the AoI experiment's end-to-end test
# (fwd_aoi.sh: tw-tfib-bench in every sync mode through the rings,
# and inline, and rcu inline and rwlock through rings with the source
# paced by omware, about 3 s each) over 1000 users, its runs kept in
# $TW_OUT/tfib for the host to analyse and plot.
export TW_AOI_KEEP=$TW_OUT/tfib TW_AOI_USERS=1000
exec "$(dirname "$0")/fwd_aoi.sh"
