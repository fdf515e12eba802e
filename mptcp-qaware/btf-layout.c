// SPDX-License-Identifier: GPL-2.0
/*
 * btf-layout: the private MPTCP declarations mptcp_qaware.ko compiles
 * against, written from a kernel's BTF (gen-private.sh builds and runs it
 * in the build directory; nothing it writes is committed).
 *
 *   btf-layout [-s BITS] [-p STRUCT] [-n STRUCT.MEMBER] VMLINUX VERSION SPEC...
 *
 * SPEC is STRUCT:MEMBER,MEMBER,...: the structure is declared with those
 * members only, each at the offset BTF gives it (a union of anonymous
 * structs, one per member, led by padding) and as large as BTF says; the
 * rest of it stays unknown to the module.  =STRUCT:MEMBER,... names a
 * structure that a public header declares: only checked.  A member this
 * kernel does not have (another version, another configuration) stops the
 * build, naming it.  Bit-fields are placed by bit in the storage unit of
 * their type; BTF counts bits in memory order, as C allocates them on
 * either byte order, so the same declaration fits both.
 *
 * Besides the declarations: static asserts of every member's offset and
 * width (the compiler must agree with this program), and the lists that
 * layout.c checks at load against the running kernel's BTF.
 *
 * Test hooks (tests/qaware), each making a module that must not load:
 * -s BITS moves the bit-fields of the list, not of the declarations; -p
 * STRUCT declares STRUCT as if 8 more bytes began it; -n STRUCT.MEMBER
 * declares MEMBER half as wide.  -p and -n leave the asserts out.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

#define QA_PAD_BYTES	8
/* anonymous structures nested deeper than this are not looked into */
#define QA_NEST_MAX	8

struct qa_opts {
	long skew;
	const char *pad;	/* -p STRUCT */
	const char *narrow;	/* -n STRUCT.MEMBER */
};

/* One member as BTF has it, in bits from the start of its structure. */
struct qa_member {
	const char *name;
	__u32 type;
	__u32 bits;
	__u32 bitfield;		/* width if a bit-field, else 0 */
	__u32 width;		/* bits */
};

static struct btf *qa_btf;
static struct btf_dump *qa_dump;
static struct qa_opts qa_opts;
static const char *qa_vmlinux;

static void qa_die(const char *fmt, ...)
{
	va_list ap;

	fputs("mptcp_qaware: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void qa_print(void *ctx, const char *fmt, va_list args)
{
	vprintf(fmt, args);
}

static const struct btf_type *qa_struct(const char *name, __u32 *id)
{
	__s32 found = btf__find_by_name_kind(qa_btf, name, BTF_KIND_STRUCT);

	if (found < 0)
		qa_die("struct %s is not in %s", name, qa_vmlinux);
	*id = found;
	return btf__type_by_id(qa_btf, found);
}

/* Member @name of @t at @base bits, in anonymous members too, as C finds it. */
static bool qa_find(const struct btf_type *t, const char *name, __u32 base,
		    struct qa_member *out, int depth)
{
	const struct btf_member *m = btf_members(t);
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(qa_btf, m->name_off);
		__u32 at = base + btf_member_bit_offset(t, i);
		const struct btf_type *inner;

		if (n && *n) {
			if (strcmp(n, name))
				continue;
			out->type = m->type;
			out->bits = at;
			out->bitfield = btf_member_bitfield_size(t, i);
			return true;
		}
		inner = btf__type_by_id(qa_btf, m->type);
		if (depth && inner && btf_is_composite(inner) &&
		    qa_find(inner, name, at, out, depth - 1))
			return true;
	}
	return false;
}

static void qa_member(const char *s, const struct btf_type *t,
		      const char *name, struct qa_member *out)
{
	__s64 size;

	out->name = name;
	if (!qa_find(t, name, 0, out, QA_NEST_MAX))
		qa_die("%s.%s is not in %s: this kernel's MPTCP lacks a member the module reads",
		       s, name, qa_vmlinux);
	size = btf__resolve_size(qa_btf, out->type);
	if (size <= 0)
		qa_die("%s.%s: no size in %s", s, name, qa_vmlinux);
	out->width = out->bitfield ? out->bitfield : size * 8;
}

static bool qa_is(const char *s, const char *m, const char *which)
{
	size_t len = strlen(s);

	if (!which || strncmp(which, s, len))
		return false;
	if (!m)
		return !which[len];
	return which[len] == '.' && !strcmp(which + len + 1, m);
}

static void qa_decl(const char *s, const struct qa_member *m)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = m->name);

	if (qa_is(s, m->name, qa_opts.narrow) && !m->bitfield) {
		printf("u%u %s", m->width / 2, m->name);
		return;
	}
	if (btf_dump__emit_type_decl(qa_dump, m->type, &o))
		qa_die("%s.%s: cannot declare its type", s, m->name);
}

/*
 * A bit-field: padding up to its storage unit, then an unnamed bit-field
 * up to its first bit, in the unit's own type.
 */
static void qa_decl_bitfield(const char *s, const struct qa_member *m,
			     __u32 shift)
{
	/* an empty name: libbpf 1.1 faults on none */
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o, .field_name = "");
	__u32 unit = btf__resolve_size(qa_btf, m->type) * 8;
	__u32 in_unit = m->bits % unit;

	/* C keeps a bit-field inside one unit unless the structure is packed */
	if (in_unit + m->bitfield > unit)
		qa_die("%s.%s crosses its storage unit in %s", s, m->name,
		       qa_vmlinux);
	printf("\t\tstruct {\n\t\t\tu8 __qa_at_%s[%u];\n", m->name,
	       (m->bits - in_unit) / 8 + shift);
	if (in_unit) {
		printf("\t\t\t");
		btf_dump__emit_type_decl(qa_dump, m->type, &o);
		printf(" : %u;\n", in_unit);
	}
	printf("\t\t\t");
	qa_decl(s, m);
	printf(" : %u;\n\t\t};\n", m->bitfield);
}

static void qa_declare_member(const char *s, const struct qa_member *m,
			      __u32 shift)
{
	__u32 at = m->bits / 8 + shift;

	if (m->bitfield) {
		qa_decl_bitfield(s, m, shift);
		return;
	}
	if (m->bits % 8)
		qa_die("%s.%s is not byte aligned in %s", s, m->name, qa_vmlinux);
	if (!at) {
		printf("\t\t");
		qa_decl(s, m);
		printf(";\n");
		return;
	}
	printf("\t\tstruct {\n\t\t\tu8 __qa_at_%s[%u];\n\t\t\t", m->name, at);
	qa_decl(s, m);
	printf(";\n\t\t};\n");
}

static void qa_declare(const char *s, const struct btf_type *t,
		       const struct qa_member *m, int n)
{
	__u32 shift = qa_is(s, NULL, qa_opts.pad) ? QA_PAD_BYTES : 0;
	int i;

	printf("\n/* %s: only these members, each where BTF has it */\n", s);
	printf("struct %s {\n\tunion {\n\t\tu8 __qa_size[%u];\n", s,
	       t->size + shift);
	for (i = 0; i < n; i++)
		qa_declare_member(s, &m[i], shift);
	printf("\t};\n};\n");
	/* a bit-field here may be a plain member elsewhere (READ_ONCE) */
	for (i = 0; i < n; i++)
		if (m[i].bitfield)
			printf("#define QA_BITFIELD_%s_%s\n", s, m[i].name);
}

static void qa_assert(const char *s, const struct qa_member *m)
{
	printf("static_assert(offsetof(struct %s, %s) == %u, \"%s.%s: not where BTF has it\");\n",
	       s, m->name, m->bits / 8, s, m->name);
	printf("static_assert(sizeof_field(struct %s, %s) == %u, \"%s.%s: not as wide as BTF has it\");\n",
	       s, m->name, m->width / 8, s, m->name);
}

/* One structure of the command line and the members named for it. */
struct qa_spec {
	const char *name;
	const struct btf_type *t;
	bool declare;
	int n;
	struct qa_member *m;
};

static void qa_spec_parse(struct qa_spec *spec, char *arg)
{
	char *list = strchr(arg, ':'), *name, *save = NULL;
	__u32 id;

	spec->declare = *arg != '=';
	spec->name = spec->declare ? arg : arg + 1;
	if (!list || !list[1])
		qa_die("btf-layout: %s: STRUCT:MEMBER,... expected", arg);
	*list++ = '\0';
	spec->t = qa_struct(spec->name, &id);
	spec->m = calloc(strlen(list), sizeof(*spec->m));
	if (!spec->m)
		qa_die("btf-layout: out of memory");
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save))
		qa_member(spec->name, spec->t, name, &spec->m[spec->n++]);
}

/* QA_LAYOUT_MEMBERS: the plain members, checked at load by offset and width. */
static void qa_list_members(const struct qa_spec *spec, int n)
{
	int i, j;

	printf("\n#define QA_LAYOUT_MEMBERS(member) do { \\\n");
	for (i = 0; i < n; i++)
		for (j = 0; j < spec[i].n; j++)
			if (!spec[i].m[j].bitfield)
				printf("\tmember(%s, %s); \\\n", spec[i].name,
				       spec[i].m[j].name);
	printf("} while (0)\n");
}

/* QA_LAYOUT_BITFIELDS: where BTF has each bit-field, -s applied. */
static void qa_list_bitfields(const struct qa_spec *spec, int n)
{
	int i, j;

	printf("\n/* check(struct, field, byte, bit, bits): bit in memory order */\n");
	printf("#define QA_LAYOUT_BITFIELDS(check) do { \\\n");
	for (i = 0; i < n; i++)
		for (j = 0; j < spec[i].n; j++) {
			const struct qa_member *m = &spec[i].m[j];

			if (m->bitfield)
				printf("\tcheck(%s, %s, %u, %ld, %u); \\\n",
				       spec[i].name, m->name, m->bits / 8,
				       m->bits % 8 + qa_opts.skew, m->bitfield);
		}
	printf("} while (0)\n");
}

/* QA_LAYOUT_STRUCTS: every structure named, checked at load by size. */
static void qa_list_structs(const struct qa_spec *spec, int n)
{
	int i;

	printf("\n#define QA_LAYOUT_STRUCTS(structure) do { \\\n");
	for (i = 0; i < n; i++)
		printf("\tstructure(%s); \\\n", spec[i].name);
	printf("} while (0)\n");
}

static void qa_asserts(const struct qa_spec *spec, int n)
{
	int i, j;

	if (qa_opts.pad || qa_opts.narrow) {
		printf("\n/* declared unlike BTF (-p, -n): must not load */\n");
		return;
	}
	printf("\n");
	for (i = 0; i < n; i++) {
		for (j = 0; j < spec[i].n; j++)
			if (!spec[i].m[j].bitfield)
				qa_assert(spec[i].name, &spec[i].m[j]);
		printf("static_assert(sizeof(struct %s) == %u, \"struct %s: not as large as BTF has it\");\n",
		       spec[i].name, spec[i].t->size, spec[i].name);
	}
}

static int qa_args(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "s:p:n:")) != -1) {
		if (c == 's')
			qa_opts.skew = strtol(optarg, NULL, 0);
		else if (c == 'p')
			qa_opts.pad = optarg;
		else if (c == 'n')
			qa_opts.narrow = optarg;
		else
			return -1;
	}
	return argc - optind >= 3 ? optind : -1;
}

static void qa_open(const char *path)
{
	qa_vmlinux = path;
	qa_btf = btf__parse(path, NULL);
	if (!qa_btf)
		qa_die("%s: no BTF readable (%s)", path, strerror(errno));
	qa_dump = btf_dump__new(qa_btf, qa_print, NULL, NULL);
	if (!qa_dump)
		qa_die("btf-layout: out of memory");
}

int main(int argc, char **argv)
{
	struct qa_spec *spec;
	int first = qa_args(argc, argv), n, i;

	if (first < 0)
		qa_die("usage: btf-layout [-s BITS] [-p STRUCT] [-n STRUCT.MEMBER] VMLINUX VERSION SPEC...");
	qa_open(argv[first]);
	n = argc - first - 2;
	spec = calloc(n, sizeof(*spec));
	if (!spec)
		qa_die("btf-layout: out of memory");
	for (i = 0; i < n; i++)
		qa_spec_parse(&spec[i], argv[first + 2 + i]);
	printf("/* Generated by btf-layout from the BTF of %s. */\n", qa_vmlinux);
	printf("#ifndef QAWARE_LAYOUT_H\n#define QAWARE_LAYOUT_H\n");
	printf("#define QA_LAYOUT_KERNEL \"%s\"\n", argv[first + 1]);
	if (qa_opts.skew)
		printf("/* bit-fields moved by %ld (-s): must not load */\n",
		       qa_opts.skew);
	for (i = 0; i < n; i++)
		if (spec[i].declare)
			qa_declare(spec[i].name, spec[i].t, spec[i].m, spec[i].n);
	qa_list_members(spec, n);
	qa_list_bitfields(spec, n);
	qa_list_structs(spec, n);
	qa_asserts(spec, n);
	printf("#endif\n");
	return fflush(stdout) ? 1 : 0;
}
