/*
 * libFuzzer target: any bytes as the INI file. Loading may fail; it must
 * never crash or leak, and a failure must leave nothing behind.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/cms-api-fuzz-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	struct config cfg;
	char err[CONFIG_ERR_LEN];
	if (config_load(&cfg, path, err) == 0) {
		struct strlist filters;
		if (allowed_filters(&cfg, RES_COLLECTIONS, "blog", &filters))
			strlist_free(&filters);
		(void)handle_enabled(&cfg, RES_NAVS, "main");
		config_free(&cfg);
	} else if (cfg.content_root || cfg.route) {
		__builtin_trap(); /* a failed load must hold nothing */
	}
	unlink(path);
	return 0;
}
