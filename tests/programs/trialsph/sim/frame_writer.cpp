#include "frame_writer.h"

#include <cstdlib>
#include <cstring>

FrameWriter::FrameWriter(const std::string &csvPath)
{
    m_file = fopen(csvPath.c_str(), "w");
    if (m_file) fprintf(m_file, "frame,id,x,y,z,speed\n");
}

FrameWriter::~FrameWriter()
{
    if (m_file) fclose(m_file);
}

void FrameWriter::writeFrame(int frame, const float4 *data, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(m_file, "%d,%d,%.9g,%.9g,%.9g,%.9g\n", frame, i, data[i].x, data[i].y, data[i].z,
                data[i].w);
}

bool FrameWriter::writeVtk(const std::string &path, const float4 *data, int n)
{
    FILE *fp = fopen(path.c_str(), "w");
    if (!fp) return false;
    fprintf(fp, "# vtk DataFile Version 3.0\nparticles\nASCII\nDATASET POLYDATA\n");
    fprintf(fp, "POINTS %d float\n", n);
    for (int i = 0; i < n; i++) fprintf(fp, "%g %g %g\n", data[i].x, data[i].y, data[i].z);
    fprintf(fp, "POINT_DATA %d\nSCALARS speed float 1\nLOOKUP_TABLE default\n", n);
    for (int i = 0; i < n; i++) fprintf(fp, "%g\n", data[i].w);
    return fclose(fp) == 0;
}

bool FrameWriter::readCsv(const std::string &path, std::vector<std::vector<float4> > &frames)
{
    FILE *fp = fopen(path.c_str(), "r");
    if (!fp) return false;
    char line[256];
    if (!fgets(line, sizeof line, fp)) { fclose(fp); return false; }
    int frame, id;
    float x, y, z, s;
    while (fscanf(fp, "%d,%d,%g,%g,%g,%g", &frame, &id, &x, &y, &z, &s) == 6) {
        if ((int)frames.size() <= frame) frames.resize(frame + 1);
        std::vector<float4> &f = frames[frame];
        if ((int)f.size() <= id) f.resize(id + 1);
        f[id] = make_float4(x, y, z, s);
    }
    fclose(fp);
    return true;
}
