/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run a function with stdout or stderr captured, for tests of what the
 * library prints.
 */
#ifndef TW_TEST_CAPTURE_H
#define TW_TEST_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Run fn(arg) with fd (1 or 2) going into buf; returns fn's result. */
static inline int capture(int fd, int (*fn)(void *), void *arg, char *buf,
			  size_t len)
{
	char path[] = "/tmp/tw-capture-XXXXXX";
	int tmp = mkstemp(path), saved = dup(fd), ret;
	ssize_t n;

	fflush(fd == 1 ? stdout : stderr);
	dup2(tmp, fd);
	ret = fn(arg);
	fflush(fd == 1 ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
	lseek(tmp, 0, SEEK_SET);
	n = read(tmp, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(tmp);
	unlink(path);
	return ret;
}

#endif /* TW_TEST_CAPTURE_H */
