/* config.h: sizes of the BFS kernels. */
#ifndef BFS_CONFIG_H
#define BFS_CONFIG_H
#define MAX_THREADS_PER_BLOCK 256
#define NUM_PERSISTENT_BLOCKS 4
#define LOCAL_QUEUE_SIZE 512
#define INF 2147483647
#define UP_LIMIT 16677216
#define WHITE 16677217
#define GRAY 16677218
#define BLACK 16677219
#endif
