/* SPDX-License-Identifier: Apache-2.0 */
#include "t.h"

#include "parse/modules.h"

static void lsmod_peermem_loaded(void **state)
{
	struct modules m;
	const struct kmod *k;

	(void)state;
	PARSE_FIXTURE(modules_parse, m, "lsmod__h100_peermem_loaded_ib_core_users.txt", 0);
	assert_int_equal(m.n, 3);
	assert_true(modules_has(&m, "nvidia_peermem"));
	assert_true(modules_has(&m, "nvidia-peermem"));
	k = modules_find(&m, "ib_core");
	assert_int_equal(k->size, 434176);
	assert_int_equal(k->refcount, 9);
	assert_int_equal(k->nusers, 9);
	assert_string_equal(k->users[0], "rdma_cm");
	assert_null(k->state);
	assert_true(modules_used_by(&m, "ib_core", "nvidia_peermem"));
	assert_true(modules_used_by(&m, "nvidia", "nvidia_peermem"));
	assert_false(modules_used_by(&m, "nvidia", "gdrdrv"));
	assert_int_equal(modules_find(&m, "nvidia")->refcount, 550);
	assert_false(modules_has(&m, "gdrdrv"));
	modules_release(&m);
}

static void lsmod_gdrdrv(void **state)
{
	struct modules m;

	(void)state;
	PARSE_FIXTURE(modules_parse, m, "lsmod__grep_gdrdrv_no_peermem.txt", 0);
	assert_int_equal(m.n, 2);
	assert_true(modules_has(&m, "gdrdrv"));
	assert_int_equal(modules_find(&m, "gdrdrv")->refcount, 0);
	assert_true(modules_used_by(&m, "nvidia", "gdrdrv"));
	assert_false(modules_has(&m, "nvidia_peermem"));
	assert_false(modules_used_by(&m, "nvidia", "nvidia_peermem"));
	assert_int_equal(modules_find(&m, "nvidia")->refcount, 1361);
	modules_release(&m);

	PARSE_FIXTURE(modules_parse, m, "lsmod__grep_gdrdrv_with_nv_peer_mem.txt", 0);
	assert_int_equal(m.n, 2);
	assert_true(modules_used_by(&m, "nvidia", "nv_peer_mem"));
	assert_false(modules_has(&m, "nv_peer_mem")); /* grep showed only its users */
	modules_release(&m);

	PARSE_FIXTURE(modules_parse, m, "lsmod__grep_peermem_empty_output.txt", 0);
	assert_int_equal(m.n, 0);
	modules_release(&m);
}

static void proc_modules_and_edge(void **state)
{
	struct modules m;
	const struct kmod *k;

	(void)state;
	PARSE_STR(modules_parse, m,
		  "nvidia_peermem 16384 0 - Live 0x0000000000000000 (OE)\n"
		  "ib_core 434176 9 rdma_cm,ib_ipoib,nvidia_peermem, Live 0xffffffffc0a00000\r\n"
		  "Module                  Size  Used by\n"
		  "unloading 4096 - - Unloading 0x0\n"
		  "permanent_mod 8192 1 [permanent]\n"
		  "trunc 12",
		  0);
	assert_int_equal(m.n, 4);
	k = modules_find(&m, "nvidia_peermem");
	assert_int_equal(k->nusers, 0);
	assert_string_equal(k->state, "Live");
	k = modules_find(&m, "ib_core");
	assert_int_equal(k->nusers, 3);
	assert_string_equal(k->users[2], "nvidia_peermem");
	assert_int_equal(modules_find(&m, "unloading")->refcount, -1);
	assert_int_equal(modules_find(&m, "permanent_mod")->nusers, 0);
	assert_null(modules_find(&m, "trunc"));
	modules_release(&m);
	PARSE_STR(modules_parse, m, "lsmod: command not found\n", -1);
	modules_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lsmod_peermem_loaded),
		cmocka_unit_test(lsmod_gdrdrv),
		cmocka_unit_test(proc_modules_and_edge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
