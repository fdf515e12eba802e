#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qaware_bql.sh with path 1 over a VLAN on the BQL NIC pair: a device with
# no queue of its own above the one that queues (the OpenMPTCProuter
# topology), where QAware must read the NIC below.
exec "$(cd "$(dirname "$0")" && pwd)/qaware_bql.sh" vlan
