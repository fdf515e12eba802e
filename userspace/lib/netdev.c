// SPDX-License-Identifier: GPL-2.0
/*
 * A device's addresses: getifaddrs() for IPv4, SIOCGIFHWADDR for the MAC.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "netdev.h"

int tw_dev_ipv4(const char *ifname, struct in_addr *addr)
{
	struct ifaddrs *ifa, *i;
	int ret = -ENOENT;

	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET ||
		    strcmp(i->ifa_name, ifname))
			continue;
		*addr = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
		ret = 0;
		break;
	}
	freeifaddrs(ifa);
	return ret;
}

int tw_dev_mac(const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr;
	int fd, ret = 0;

	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -ENAMETOOLONG;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		ret = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return ret;
}
