/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the few kernel interfaces the portable core uses.
 *
 * In a kernel build this only pulls in the real headers.  On the host it
 * maps them onto libc, pthreads and liburcu so that the same sources can be
 * unit tested and benchmarked as ordinary programs.
 */
#ifndef _TW_COMPAT_H
#define _TW_COMPAT_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/compiler.h>
#include <linux/minmax.h>
#include <linux/bug.h>
#include <linux/math64.h>
#include <linux/spinlock.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <linux/hrtimer.h>
#include <linux/version.h>

/*
 * Interfaces of newer kernels, provided on older ones so the sources use
 * the current names only.
 */
#if KERNEL_VERSION(6, 13, 0) > LINUX_VERSION_CODE
/* 6.13 added hrtimer_setup(); 6.15 removed hrtimer_init(). */
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*fn)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = fn;
}
#endif

#else /* host */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <pthread.h>
#ifndef TW_HOST_NO_URCU	/* cross builds of the RCU-free parts */
#include <urcu.h>
#endif
#include <linux/types.h>

/* From the uapi types, so that u64 is unsigned long long as in the kernel. */
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))
#define S64_MIN		(-S64_MAX - 1)

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

/* Evaluate each argument once, like the kernel versions. */
#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
		     _a > _b ? _a : _b; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	clamp((t)(v), (t)(lo), (t)(hi))

static inline u64 div_u64(u64 a, u32 b) { return a / b; }
static inline u64 div64_u64(u64 a, u64 b) { return a / b; }
static inline s64 div_s64(s64 a, s32 b) { return a / b; }
static inline s64 div64_s64(s64 a, s64 b) { return a / b; }

#define GFP_KERNEL	0
#define GFP_ATOMIC	0
#define kmalloc(size, gfp)	((void)(gfp), malloc(size))
#define kzalloc(size, gfp)	((void)(gfp), calloc(1, size))
#define kcalloc(n, size, gfp)	((void)(gfp), calloc(n, size))
#define kfree(p)		free(p)
#define kvfree(p)		free(p)

/*
 * Warnings print and count rather than abort, as in the kernel; tests read
 * tw_host_warnings to assert that none (or an expected one) fired.
 */
#pragma weak tw_host_warnings
unsigned long tw_host_warnings;

#define WARN_ON(cond) ({						\
	bool _c = !!(cond);						\
	if (unlikely(_c)) {						\
		tw_host_warnings++;					\
		fprintf(stderr, "WARNING: %s:%d: %s\n",			\
			__FILE__, __LINE__, #cond);			\
	}								\
	_c;								\
})
#define WARN_ON_ONCE(cond)	WARN_ON(cond)

/* Kernel type names; defines rather than typedefs, they are aliases. */
#define spinlock_t		pthread_spinlock_t
#define spin_lock_init(l)	pthread_spin_init(l, PTHREAD_PROCESS_PRIVATE)
#define spin_lock(l)		pthread_spin_lock(l)
#define spin_unlock(l)		pthread_spin_unlock(l)
#define spin_lock_bh(l)		pthread_spin_lock(l)
#define spin_unlock_bh(l)	pthread_spin_unlock(l)

struct tw_atomic64 {
	s64 counter;
};

#define atomic64_t		struct tw_atomic64

#define ATOMIC64_INIT(i)	{ (i) }

static inline s64 atomic64_read(const atomic64_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic64_set(atomic64_t *v, s64 i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic64_add(s64 i, atomic64_t *v)
{
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic64_sub(s64 i, atomic64_t *v)
{
	__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED);
}

static inline s64 atomic64_add_return(s64 i, atomic64_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

#define atomic64_inc(v)		atomic64_add(1, v)
#define atomic64_dec(v)		atomic64_sub(1, v)
#define atomic64_inc_return(v)	atomic64_add_return(1, v)

/* RCU: rcu_read_lock() & co. come from liburcu; threads must register. */

static inline u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

#endif /* __KERNEL__ */

#endif /* _TW_COMPAT_H */
