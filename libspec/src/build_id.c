// SPDX-License-Identifier: GPL-2.0
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "build_id.h"
#include "jit/jit_hash.h"

#define NOTE_ALIGN(n) (((n) + 3u) & ~3u)

struct found {
	uintptr_t addr;
	const uint8_t *id; /* the note's bytes, in the mapped image */
	size_t id_len;
	const void *text; /* the executable segment holding addr */
	size_t text_len;
};

static void find_note(const ElfW(Phdr) * ph, uintptr_t base, struct found *f)
{
	const uint8_t *p = (const uint8_t *)(base + ph->p_vaddr), *end = p + ph->p_memsz;

	while (p + sizeof(ElfW(Nhdr)) <= end) {
		const ElfW(Nhdr) *n = (const void *)p;
		const uint8_t *name = p + sizeof(*n), *desc = name + NOTE_ALIGN(n->n_namesz);

		if (desc + n->n_descsz > end)
			return;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
			f->id = desc;
			f->id_len = n->n_descsz;
			return;
		}
		p = desc + NOTE_ALIGN(n->n_descsz);
	}
}

static int visit(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct found *f = arg;
	const void *text = NULL;
	size_t i, text_len = 0;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr - lo < ph->p_memsz) {
			text = (const void *)lo;
			text_len = ph->p_memsz;
		}
	}
	if (!text)
		return 0;
	f->text = text;
	f->text_len = text_len;
	for (i = 0; i < info->dlpi_phnum && !f->id; i++) {
		if (info->dlpi_phdr[i].p_type == PT_NOTE)
			find_note(&info->dlpi_phdr[i], info->dlpi_addr, f);
	}
	return 1;
}

int build_id_of(const void *addr, char *hex, size_t hexsz)
{
	struct found f = {.addr = (uintptr_t)addr};
	uint8_t d[JIT_DIGEST_LEN];
	size_t i, n = 0;

	if (!dl_iterate_phdr(visit, &f) || !hexsz)
		return -ENOENT;
	if (!f.id) {
		/* Position-independent code: the same bytes in every process. */
		jit_digest(f.text, f.text_len, d);
		f.id = d;
		f.id_len = 20;
		n = (size_t)snprintf(hex, hexsz, "text-");
	}
	for (i = 0; i < f.id_len && n + 2 < hexsz; i++)
		n += (size_t)snprintf(hex + n, hexsz - n, "%02x", f.id[i]);
	return 0;
}
