#ifndef FRAME_WRITER_H
#define FRAME_WRITER_H
#include <cstdio>
#include <string>
#include <vector>
#include <vec_math.h>

/* Writes particle frames as CSV rows (frame,id,x,y,z,speed) and one legacy
 * VTK polydata file for the last frame. Host code only. */
class FrameWriter {
public:
    explicit FrameWriter(const std::string &csvPath);
    ~FrameWriter();
    bool ok() const { return m_file != nullptr; }
    void writeFrame(int frame, const float4 *data, int n);
    static bool writeVtk(const std::string &path, const float4 *data, int n);
    static bool readCsv(const std::string &path, std::vector<std::vector<float4> > &frames);

private:
    FILE *m_file;
};
#endif
