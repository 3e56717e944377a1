// Minimal PGM/PPM (binary P5/P6) reader and writer, and generated test images.
#ifndef TRIALIMG_IMAGE_IO_H
#define TRIALIMG_IMAGE_IO_H
#include <string>
#include <vector>

struct Image {
  int width = 0, height = 0, channels = 0;  // 1 = PGM, 3 = PPM
  std::vector<unsigned char> data;
  unsigned char &at(int x, int y, int c = 0) { return data[(size_t(y) * width + x) * channels + c]; }
  unsigned char at(int x, int y, int c = 0) const { return data[(size_t(y) * width + x) * channels + c]; }
};

bool savePNM(const std::string &path, const Image &img);
bool loadPNM(const std::string &path, Image &img);
// A synthetic photo-like test image: gradients, discs and deterministic noise.
Image makeTestImage(int width, int height, int channels, unsigned seed);
// A binary-ish image of random blobs (for labelling and morphology).
Image makeBlobImage(int width, int height, int blobs, unsigned seed);
// RGB (3 channels) to RGBA bytes, alpha 255.
std::vector<unsigned char> toRGBA(const Image &img);
std::string tempImagePath(const char *name);

#endif  // TRIALIMG_IMAGE_IO_H
