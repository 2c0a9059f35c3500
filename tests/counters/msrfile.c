/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test helper for --sysroot MSR fixtures: msrfile FILE ADDR=VALUE... writes each VALUE as 8
 * little-endian bytes at offset 8*ADDR; msrfile FILE ADDR prints the MSR (or "absent").
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: msrfile FILE ADDR=VALUE... | msrfile FILE ADDR\n");
		return 2;
	}
	int fd = open(argv[1], O_RDWR | O_CREAT, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		uint64_t addr = strtoull(argv[i], NULL, 0);
		unsigned char b[8];
		if (!eq) {
			if (pread(fd, b, 8, (off_t)(addr * 8)) != 8) {
				printf("absent\n");
				continue;
			}
			uint64_t v = 0;
			for (int k = 7; k >= 0; k--)
				v = v << 8 | b[k];
			printf("%" PRIu64 "\n", v);
			continue;
		}
		uint64_t v = strtoull(eq + 1, NULL, 0);
		for (int k = 0; k < 8; k++)
			b[k] = (unsigned char)(v >> (8 * k));
		if (pwrite(fd, b, 8, (off_t)(addr * 8)) != 8) {
			perror("pwrite");
			return 1;
		}
	}
	close(fd);
	return 0;
}
