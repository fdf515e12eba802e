/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A network device's own addresses, looked up by its name in this
 * network namespace.
 */
#ifndef TW_NETDEV_H
#define TW_NETDEV_H

#include <netinet/in.h>
#include <stdint.h>

/* Its first IPv4 address: 0 or -errno (-ENOENT: none). */
int tw_dev_ipv4(const char *ifname, struct in_addr *addr);
/* Its MAC address: 0 or -errno. */
int tw_dev_mac(const char *ifname, uint8_t mac[6]);

#endif /* TW_NETDEV_H */
