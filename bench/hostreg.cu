// What pinning the caller's own memory would cost on this host, against the staging copies tileblas makes today:
// cudaHostRegister / cudaHostUnregister of malloc'd buffers (touched before, and fresh), host<->device copies from
// and to registered, pinned (cudaHostAlloc) and pageable memory, and T threads copying pageable memory into pinned.
//   nvcc -O2 -o hostreg bench/hostreg.cu -lpthread && ./hostreg [MiB] [threads]
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
#define CK(x)                                                                                                      \
    do {                                                                                                           \
        cudaError_t e_ = (x);                                                                                      \
        if (e_ != cudaSuccess) {                                                                                   \
            printf("%s: %s\n", #x, cudaGetErrorString(e_));                                                        \
            return 1;                                                                                              \
        }                                                                                                          \
    } while (0)

struct piece {
    char *dst;
    const char *src;
    size_t n;
};
static void *copy_piece(void *arg)
{
    piece *p = (piece *)arg;
    memcpy(p->dst, p->src, p->n);
    return NULL;
}
// dst = src with T threads, seconds
static double threaded_copy(char *dst, const char *src, size_t n, int T)
{
    pthread_t th[64];
    piece p[64];
    double t0 = now();
    for (int i = 0; i < T; i++) {
        p[i] = { dst + n * i / T, src + n * i / T, n * (i + 1) / T - n * i / T };
        pthread_create(&th[i], NULL, copy_piece, &p[i]);
    }
    for (int i = 0; i < T; i++)
        pthread_join(th[i], NULL);
    return now() - t0;
}

static double copy_time(void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    cudaDeviceSynchronize();
    double t0 = now();
    cudaMemcpy(dst, src, n, kind);
    cudaDeviceSynchronize();
    return now() - t0;
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 512, n = mib << 20;
    int T = argc > 2 ? atoi(argv[2]) : 16;
    void *dev, *pinned;
    CK(cudaMalloc(&dev, n));
    CK(cudaHostAlloc(&pinned, n, cudaHostAllocDefault));
    memset(pinned, 1, n);
    char *touched = (char *)malloc(n);
    for (size_t i = 0; i < n; i += 4096)
        touched[i] = (char)i;
    memset(touched, 3, n);
    printf("%zu MiB buffers, %d copy threads\n", mib, T);
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now();
        CK(cudaHostRegister(touched, n, cudaHostRegisterDefault));
        double reg = now() - t0;
        double h2d = copy_time(dev, touched, n, cudaMemcpyHostToDevice);
        double d2h = copy_time(touched, dev, n, cudaMemcpyDeviceToHost);
        t0 = now();
        CK(cudaHostUnregister(touched));
        double unreg = now() - t0;
        printf("touched malloc: register %.2f ms, H2D %.1f GB/s, D2H %.1f GB/s, unregister %.2f ms\n", 1e3 * reg,
               n / h2d / 1e9, n / d2h / 1e9, 1e3 * unreg);
    }
    for (int rep = 0; rep < 2; rep++) {
        char *fresh = (char *)malloc(n);
        double t0 = now();
        cudaError_t e = cudaHostRegister(fresh, n, cudaHostRegisterDefault);
        double reg = now() - t0;
        if (e != cudaSuccess) {
            printf("fresh malloc: register failed: %s\n", cudaGetErrorString(e));
            cudaGetLastError();
        } else {
            double d2h = copy_time(fresh, dev, n, cudaMemcpyDeviceToHost);
            t0 = now();
            cudaHostUnregister(fresh);
            printf("fresh malloc: register %.2f ms, D2H into it %.1f GB/s, unregister %.2f ms\n", 1e3 * reg,
                   n / d2h / 1e9, 1e3 * (now() - t0));
        }
        free(fresh);
    }
    for (int rep = 0; rep < 2; rep++)
        printf("cudaHostAlloc'd: H2D %.1f GB/s, D2H %.1f GB/s; pageable: H2D %.1f GB/s, D2H %.1f GB/s\n",
               n / copy_time(dev, pinned, n, cudaMemcpyHostToDevice) / 1e9,
               n / copy_time(pinned, dev, n, cudaMemcpyDeviceToHost) / 1e9,
               n / copy_time(dev, touched, n, cudaMemcpyHostToDevice) / 1e9,
               n / copy_time(touched, dev, n, cudaMemcpyDeviceToHost) / 1e9);
    for (int rep = 0; rep < 2; rep++) {
        double t = threaded_copy((char *)pinned, touched, n, T);
        double t1 = threaded_copy((char *)pinned, touched, n, 1);
        printf("pageable -> pinned memcpy: %d threads %.1f GB/s, 1 thread %.1f GB/s\n", T, n / t / 1e9, n / t1 / 1e9);
    }
    return 0;
}
