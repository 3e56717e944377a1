#include "image_io.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

static int readToken(FILE *f) {
  int c = fgetc(f);
  while (c != EOF) {
    if (c == '#') {
      while (c != '\n' && c != EOF) c = fgetc(f);
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      c = fgetc(f);
    } else {
      break;
    }
  }
  int v = 0;
  bool any = false;
  while (c >= '0' && c <= '9') {
    v = v * 10 + (c - '0');
    any = true;
    c = fgetc(f);
  }
  return any ? v : -1;
}

bool loadPNM(const std::string &path, Image &img) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return false;
  char magic[3] = {0};
  if (fread(magic, 1, 2, f) != 2 || magic[0] != 'P' || (magic[1] != '5' && magic[1] != '6')) {
    fclose(f);
    return false;
  }
  img.channels = magic[1] == '5' ? 1 : 3;
  img.width = readToken(f);
  img.height = readToken(f);
  int maxval = readToken(f);
  if (img.width <= 0 || img.height <= 0 || maxval != 255) {
    fclose(f);
    return false;
  }
  img.data.resize(size_t(img.width) * img.height * img.channels);
  size_t got = fread(img.data.data(), 1, img.data.size(), f);
  fclose(f);
  return got == img.data.size();
}

bool savePNM(const std::string &path, const Image &img) {
  FILE *f = fopen(path.c_str(), "wb");
  if (!f) return false;
  fprintf(f, "P%c\n# written by image_io\n%d %d\n255\n", img.channels == 1 ? '5' : '6', img.width,
          img.height);
  size_t put = fwrite(img.data.data(), 1, img.data.size(), f);
  fclose(f);
  return put == img.data.size();
}

static unsigned lcg(unsigned &s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}

Image makeTestImage(int width, int height, int channels, unsigned seed) {
  Image img;
  img.width = width;
  img.height = height;
  img.channels = channels;
  img.data.resize(size_t(width) * height * channels);
  unsigned s = seed;
  float cx = width * 0.4f, cy = height * 0.55f, r = 0.3f * (width < height ? width : height);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      for (int c = 0; c < channels; c++) {
        float v = 40.0f + 120.0f * x / width + 30.0f * c;
        float d = std::sqrt((x - cx) * (x - cx) + (y - cy) * (y - cy));
        if (d < r) v += 60.0f - 20.0f * c;
        if (((x / 8) + (y / 8)) % 5 == 0) v *= 0.5f;
        v += float(lcg(s) % 21) - 10.0f;
        img.at(x, y, c) = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
      }
  return img;
}

Image makeBlobImage(int width, int height, int blobs, unsigned seed) {
  Image img;
  img.width = width;
  img.height = height;
  img.channels = 1;
  img.data.assign(size_t(width) * height, 0);
  unsigned s = seed;
  for (int b = 0; b < blobs; b++) {
    int bx = lcg(s) % width, by = lcg(s) % height, br = 2 + lcg(s) % 7;
    for (int y = by - br; y <= by + br; y++)
      for (int x = bx - br; x <= bx + br; x++)
        if (x >= 0 && y >= 0 && x < width && y < height && (x - bx) * (x - bx) + (y - by) * (y - by) <= br * br)
          img.at(x, y) = 255;
  }
  // Salt noise, so that the median filter has something to remove.
  for (int i = 0; i < width * height / 50; i++) img.data[lcg(s) % img.data.size()] ^= 255;
  return img;
}

std::vector<unsigned char> toRGBA(const Image &img) {
  std::vector<unsigned char> out(size_t(img.width) * img.height * 4);
  for (size_t i = 0; i < size_t(img.width) * img.height; i++) {
    for (int c = 0; c < 3; c++) out[i * 4 + c] = img.data[i * img.channels + (img.channels == 3 ? c : 0)];
    out[i * 4 + 3] = 255;
  }
  return out;
}

std::string tempImagePath(const char *name) {
  const char *dir = getenv("TMPDIR");
  char buf[512];
  snprintf(buf, sizeof buf, "%s/trialimg_%d_%s", dir ? dir : "/tmp", (int)getpid(), name);
  return buf;
}
