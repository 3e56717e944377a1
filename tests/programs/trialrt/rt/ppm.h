#ifndef PPMH
#define PPMH
#include <cstdio>
#include <string>
#include "vec3.h"

inline bool write_ppm(const std::string &path, const vec3 *fb, int nx, int ny) {
    FILE *f = fopen(path.c_str(), "wb");
    if (!f) return false;
    fprintf(f, "P3\n%d %d\n255\n", nx, ny);
    for (int j = ny-1; j >= 0; j--) {
        for (int i = 0; i < nx; i++) {
            size_t pixel_index = j*nx + i;
            int ir = int(255.99*fminf(fb[pixel_index].r(), 1.0f));
            int ig = int(255.99*fminf(fb[pixel_index].g(), 1.0f));
            int ib = int(255.99*fminf(fb[pixel_index].b(), 1.0f));
            fprintf(f, "%d %d %d\n", ir, ig, ib);
        }
    }
    return fclose(f) == 0;
}

// Reads back a P3 image into bytes, to check what was written.
inline bool read_ppm(const std::string &path, std::vector<unsigned char> &rgb, int &nx, int &ny) {
    FILE *f = fopen(path.c_str(), "rb");
    if (!f) return false;
    int maxv;
    if (fscanf(f, "P3 %d %d %d", &nx, &ny, &maxv) != 3) { fclose(f); return false; }
    rgb.resize((size_t)nx*ny*3);
    for (size_t k = 0; k < rgb.size(); k++) {
        int c;
        if (fscanf(f, "%d", &c) != 1) { fclose(f); return false; }
        rgb[k] = (unsigned char)c;
    }
    fclose(f);
    return true;
}
#endif
