// SPDX-License-Identifier: GPL-2.0
/*
 * The private layout, checked at load (the module was compiled against the
 * declarations gen-private.sh wrote from the BTF of the kernel built for,
 * qaware_layout.h, which asserts their offsets and sizes):
 *
 *   - against the running kernel: every member the module uses (of the
 *     private structures and of the scheduler API's, which the kernel
 *     reads) must be where /sys/kernel/btf/vmlinux has it and as wide, and
 *     every structure as large.  The kernel
 *     parses its BTF itself but exports no way to reach it (neither
 *     bpf_get_btf_vmlinux nor btf_find_by_name_kind; only btf_type_by_id,
 *     which needs the struct btf), so the file is read and walked here:
 *     names, sizes and members only.
 *   - the bit-fields also against the build's BTF, which C cannot assert.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/btf.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <net/tcp.h>
#include "private.h"
#include "internal.h"

#define QA_BTF_PATH	"/sys/kernel/btf/vmlinux"
/* The running kernel's is ~6 MB; anything far larger is not BTF. */
#define QA_BTF_MAX	(64 << 20)

struct qa_btf {
	const void *types;		/* the type section */
	u32 types_len;
	const char *strs;		/* the string section */
	u32 strs_len;
	const struct btf_type **by_id;	/* [1..nr] */
	u32 nr;
};

/* Bytes a type takes in the type section after its struct btf_type. */
static int qa_btf_extra(const struct btf_type *t)
{
	u32 vlen = btf_type_vlen(t);

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		return sizeof(u32);
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:
		return sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG:
		return sizeof(struct btf_decl_tag);
	case BTF_KIND_ENUM64:
		return vlen * sizeof(struct btf_enum64);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -EINVAL;	/* a kind this module does not know */
	}
}

/*
 * Walk the type section, bounds checked; fill @by_id[1..] if given.
 * Returns the number of types, or -EINVAL.
 */
static long qa_btf_walk(const struct qa_btf *btf, const struct btf_type **by_id)
{
	u32 off = 0;
	long n = 0;
	int extra;

	while (off + sizeof(struct btf_type) <= btf->types_len) {
		const struct btf_type *t = btf->types + off;

		extra = qa_btf_extra(t);
		if (extra < 0 || off + sizeof(*t) + extra > btf->types_len)
			return -EINVAL;
		if (by_id)
			by_id[n + 1] = t;
		n++;
		off += sizeof(*t) + extra;
	}
	return off == btf->types_len ? n : -EINVAL;
}

/* Index the types by id (id 0 is void). */
static int qa_btf_index(struct qa_btf *btf)
{
	long n = qa_btf_walk(btf, NULL);

	if (n < 0)
		return n;
	btf->by_id = kvmalloc_array(n + 1, sizeof(*btf->by_id), GFP_KERNEL);
	if (!btf->by_id)
		return -ENOMEM;
	btf->nr = n;
	qa_btf_walk(btf, btf->by_id);
	return 0;
}

/*
 * The header every BTF has.  Newer uapi headers (7.3's, not 6.12's) add
 * a layout section after the string section's fields, which a kernel
 * may leave out: 7.3.4's vmlinux has hdr_len 24, less than their
 * sizeof(struct btf_header).  Only these fields are read.
 */
#define QA_BTF_HDR_MIN	offsetofend(struct btf_header, str_len)

/* The sections of the raw BTF in @data; false if it is not BTF. */
static bool qa_btf_sections(struct qa_btf *btf, const void *data, size_t size)
{
	const struct btf_header *hdr = data;
	u64 types_end, strs_end;

	if (size < QA_BTF_HDR_MIN || hdr->magic != BTF_MAGIC ||
	    hdr->hdr_len < QA_BTF_HDR_MIN || hdr->hdr_len > size)
		return false;
	types_end = (u64)hdr->hdr_len + hdr->type_off + hdr->type_len;
	strs_end = (u64)hdr->hdr_len + hdr->str_off + hdr->str_len;
	if (types_end > size || strs_end > size || !hdr->str_len)
		return false;
	btf->types = data + hdr->hdr_len + hdr->type_off;
	btf->types_len = hdr->type_len;
	btf->strs = data + hdr->hdr_len + hdr->str_off;
	btf->strs_len = hdr->str_len;
	/* every name must end inside the section */
	return btf->strs[btf->strs_len - 1] == '\0';
}

static const char *qa_btf_name(const struct qa_btf *btf, u32 off)
{
	return off < btf->strs_len ? btf->strs + off : "";
}

/* The complete struct named @name, or NULL. */
static const struct btf_type *qa_btf_struct(const struct qa_btf *btf,
					    const char *name)
{
	u32 id;

	for (id = 1; id <= btf->nr; id++) {
		const struct btf_type *t = btf->by_id[id];

		if (btf_kind(t) == BTF_KIND_STRUCT &&
		    !strcmp(qa_btf_name(btf, t->name_off), name))
			return t;
	}
	return NULL;
}

/* Where a member lies and how wide it is, in bits. */
struct qa_btf_loc {
	u32 bits;
	long width;		/* -1: a type this module cannot size */
};

/*
 * Bits a value of type @id takes: through typedefs and qualifiers to an
 * integer (its bits), a pointer, an array, or what else has a size.
 */
static long qa_btf_type_bits(const struct qa_btf *btf, u32 id,
			     unsigned int depth)
{
	const struct btf_type *t;
	const struct btf_array *a;
	long elem;

	if (!id || id > btf->nr || !depth)
		return -1;
	t = btf->by_id[id];
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		/* the int's encoding follows its btf_type */
		return BTF_INT_BITS(*(const u32 *)(t + 1));
	case BTF_KIND_PTR:
		return BITS_PER_LONG;
	case BTF_KIND_ARRAY:
		a = btf_array(t);
		elem = qa_btf_type_bits(btf, a->type, depth - 1);
		return elem < 0 ? -1 : elem * a->nelems;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return qa_btf_type_bits(btf, t->type, depth - 1);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT:
		return (long)t->size * BITS_PER_BYTE;
	default:
		return -1;
	}
}

static void qa_btf_found(const struct qa_btf *btf, const struct btf_type *t,
			 const struct btf_member *m, u32 at,
			 struct qa_btf_loc *loc)
{
	u32 bitfield = __btf_member_bitfield_size(t, m);

	loc->bits = at;
	loc->width = bitfield ? bitfield : qa_btf_type_bits(btf, m->type, 8);
}

/*
 * Member @name of @t, looking into anonymous structs and unions as C
 * does; false if it has none.  @depth bounds a malformed (cyclic) file.
 */
static bool qa_btf_member(const struct qa_btf *btf, const struct btf_type *t,
			  const char *name, u32 base, struct qa_btf_loc *loc,
			  unsigned int depth)
{
	const struct btf_member *m = btf_type_member(t);
	u16 i;

	for (i = 0; i < btf_type_vlen(t); i++, m++) {
		u32 at = base + __btf_member_bit_offset(t, m);
		const struct btf_type *inner;

		if (m->name_off) {
			if (strcmp(qa_btf_name(btf, m->name_off), name))
				continue;
			qa_btf_found(btf, t, m, at, loc);
			return true;
		}
		if (!m->type || m->type > btf->nr || !depth)
			continue;
		inner = btf->by_id[m->type];
		if ((btf_kind(inner) == BTF_KIND_STRUCT ||
		     btf_kind(inner) == BTF_KIND_UNION) &&
		    qa_btf_member(btf, inner, name, at, loc, depth - 1))
			return true;
	}
	return false;
}

/*
 * Where the module's @s.@f lies (@bits from the start) and its @width in
 * bits must be BTF's.
 */
static int qa_btf_expect(const struct qa_btf *btf, const char *s,
			 const char *f, long bits, long width)
{
	const struct btf_type *t = qa_btf_struct(btf, s);
	struct qa_btf_loc loc;

	if (!t) {
		pr_err("struct %s is not in the running kernel's BTF (%s): refusing to load\n",
		       s, QA_BTF_PATH);
		return -EINVAL;
	}
	if (!qa_btf_member(btf, t, f, 0, &loc, 4)) {
		pr_err("%s.%s is not in the running kernel's BTF (%s): refusing to load\n",
		       s, f, QA_BTF_PATH);
		return -EINVAL;
	}
	if (bits != loc.bits) {
		pr_err("%s.%s is at bit %ld in this module, at bit %u in the running kernel's BTF (%s): the private layout does not match, refusing to load\n",
		       s, f, bits, loc.bits, QA_BTF_PATH);
		return -EINVAL;
	}
	if (width == loc.width)
		return 0;
	pr_err("%s.%s is %ld bits wide in this module, %ld in the running kernel's BTF (%s): the private layout does not match, refusing to load\n",
	       s, f, width, loc.width, QA_BTF_PATH);
	return -EINVAL;
}

static int qa_btf_expect_size(const struct qa_btf *btf, const char *s,
			      size_t size)
{
	const struct btf_type *t = qa_btf_struct(btf, s);

	if (t && t->size == size)
		return 0;
	pr_err("struct %s is %zu bytes in this module, %d in the running kernel's BTF (%s): the private layout does not match, refusing to load\n",
	       s, size, t ? (int)t->size : -1, QA_BTF_PATH);
	return -EINVAL;
}

/*
 * Where bit @lsb (0: the least significant) of a byte lies in memory
 * order, as BTF numbers bit-fields: on big endian bit 0 is the MSB.
 */
static unsigned int qa_bit_in_byte(unsigned int lsb)
{
	return IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? BITS_PER_BYTE - 1 - lsb : lsb;
}

/* The position of the one bit set in @obj, or -1 (none, or several). */
static long qa_bit_pos(const u8 *obj, size_t size)
{
	long pos = -1;
	size_t i;

	for (i = 0; i < size; i++) {
		if (!obj[i])
			continue;
		if (pos >= 0 || hweight8(obj[i]) != 1)
			return -1;
		pos = i * BITS_PER_BYTE + qa_bit_in_byte(__ffs(obj[i]));
	}
	return pos;
}

/* The bits set in @obj. */
static long qa_bit_count(const u8 *obj, size_t size)
{
	long n = 0;
	size_t i;

	for (i = 0; i < size; i++)
		n += hweight8(obj[i]);
	return n;
}

/*
 * Bit-field @f of a zeroed struct @s at @scratch (qa_scratch_size() bytes,
 * enough for every struct of the lists): set to 1, where did it land?
 * Counted down from 0 (every bit of it set), how wide is it?
 */
#define QA_BITFIELD_POS(s, f, scratch) ({				\
	struct s *obj = (scratch);					\
									\
	memset(obj, 0, sizeof(*obj));					\
	obj->f = 1;							\
	qa_bit_pos((const u8 *)obj, sizeof(*obj));			\
})

#define QA_BITFIELD_WIDTH(s, f, scratch) ({				\
	struct s *obj = (scratch);					\
									\
	memset(obj, 0, sizeof(*obj));					\
	obj->f--;							\
	qa_bit_count((const u8 *)obj, sizeof(*obj));			\
})

#define QA_BTF_MEMBER(s, f)						\
	do {								\
		if (!err)						\
			err = qa_btf_expect(btf, #s, #f,		\
				offsetof(struct s, f) * BITS_PER_BYTE,	\
				sizeof_field(struct s, f) * BITS_PER_BYTE); \
	} while (0)

/*
 * A bit-field must lie where the running kernel's BTF has it and be as
 * wide, and be where and as wide as the build's had it (@byte, @bit,
 * @bits: qaware_layout.h), which C could not assert at build time.
 */
#define QA_BTF_BITFIELD(s, f, byte, bit, bits)				\
	do {								\
		long pos = QA_BITFIELD_POS(s, f, scratch);		\
		long width = QA_BITFIELD_WIDTH(s, f, scratch);		\
									\
		if (!err)						\
			err = qa_btf_expect(btf, #s, #f, pos, width);	\
		if (!err && (pos != (byte) * BITS_PER_BYTE + (bit) ||	\
			     width != (bits)))				\
			err = qa_build_mismatch(#s "." #f);		\
	} while (0)

#define QA_BTF_STRUCT(s)						\
	do {								\
		if (!err)						\
			err = qa_btf_expect_size(btf, #s, sizeof(struct s)); \
	} while (0)

static int qa_build_mismatch(const char *member)
{
	pr_err("%s is not where the kernel's BTF has it: the private layout does not match, refusing to load\n",
	       member);
	return -EINVAL;
}

static int qa_btf_check(const struct qa_btf *btf, void *scratch)
{
	int err = 0;

	QA_LAYOUT_MEMBERS(QA_BTF_MEMBER);
	QA_LAYOUT_BITFIELDS(QA_BTF_BITFIELD);
	QA_LAYOUT_STRUCTS(QA_BTF_STRUCT);
	return err;
}

/*
 * The whole file into a vmalloc()ed buffer.  Not kernel_read_file(): its
 * LSM hook wants to know what is read, and no READING_* id fits (IPE
 * warns about READING_UNKNOWN).  sysfs gives the BTF's size as i_size.
 */
static ssize_t qa_read_btf(void **out)
{
	struct file *file = filp_open(QA_BTF_PATH, O_RDONLY, 0);
	loff_t size, pos = 0;
	ssize_t len = -EINVAL;
	void *buf;

	if (IS_ERR(file))
		return PTR_ERR(file);
	size = i_size_read(file_inode(file));
	if (size <= 0 || size > QA_BTF_MAX)
		goto out;
	len = -ENOMEM;
	buf = vmalloc(size);
	if (!buf)
		goto out;
	while (pos < size) {
		len = kernel_read(file, buf + pos, size - pos, &pos);
		if (len <= 0)
			break;
	}
	if (pos == size) {
		*out = buf;
		len = size;
	} else {
		vfree(buf);
		len = len < 0 ? len : -EIO;
	}
out:
	fput(file);
	return len;
}

static int qa_check_running_btf(void *scratch)
{
	struct qa_btf btf = {};
	void *data = NULL;
	ssize_t len;
	int err;

	len = qa_read_btf(&data);
	if (len < 0) {
		pr_err("cannot read %s (%zd): the private layout cannot be checked against the running kernel, refusing to load\n",
		       QA_BTF_PATH, len);
		return len;
	}
	err = qa_btf_sections(&btf, data, len) ? qa_btf_index(&btf) : -EINVAL;
	if (err == -EINVAL)
		pr_err("%s is not BTF this module can read: refusing to load\n",
		       QA_BTF_PATH);
	else if (!err)
		err = qa_btf_check(&btf, scratch);
	kvfree(btf.by_id);
	vfree(data);
	return err;
}

/*
 * The scratch struct of the bit-field checks: as large as the largest
 * structure of the lists, which name every structure a bit-field comes
 * from (btf-layout sizes each one it reads).
 */
static size_t qa_scratch_size(void)
{
	size_t size = 0;

#define QA_SCRATCH_FITS(s) (size = max(size, sizeof(struct s)))
	QA_LAYOUT_STRUCTS(QA_SCRATCH_FITS);
#undef QA_SCRATCH_FITS
	return size;
}

int qa_check_layout(void)
{
	void *scratch;
	int err;

	scratch = kzalloc(qa_scratch_size(), GFP_KERNEL);
	if (!scratch)
		return -ENOMEM;
	err = qa_check_running_btf(scratch);
	kfree(scratch);
	return err;
}
