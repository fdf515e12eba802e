/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tfib_util.h - what the tfib test programs share besides the client:
 * their preconditions, shell commands, capabilities and module parameters.
 */
#ifndef TFIB_UTIL_H
#define TFIB_UTIL_H

#include <stdint.h>

#include "twt_tfib.h"
#include "twt_wire.h"

/* Skip the program (exit 4) unless root and the family are there. */
void tfu_require(int argc, char **argv);
/* Open a client or end the test process as failed. */
void tfu_open(struct twt *c);
/* Run a shell command quietly; its exit status. */
int tfu_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Drop CAP_NET_ADMIN from this process (effective and permitted). */
int tfu_drop_net_admin(void);
/* Read and write a module parameter (unsigned). */
long tfu_param(const char *name);
int tfu_set_param(const char *name, unsigned long v);
/* A MAC address made of @seed, locally administered. */
void tfu_mac(uint8_t mac[6], uint32_t seed);
/* An entry of @user_id with tfu_mac(seed), a timestamp and a sequence. */
struct tfc_entry tfu_entry(uint32_t user_id, uint32_t seed);
uint64_t tfu_now(int clockid);
/* Print an ack as a diagnostic line. */
void tfu_show(const char *what, const struct twt_ack *a);

#endif
