/* io.cc: reading and writing column-major matrix files (text: "rows cols" then the values). */
#include <fstream>
#include <iostream>
#include <vector>

bool readColMajorMatrixFile(const char *fn, int &nr_row, int &nr_col, std::vector<float> &v)
{
    std::cerr << "Opening file:" << fn << std::endl;
    std::fstream f(fn, std::fstream::in);
    if (!f.good()) {
        return false;
    }

    // Read # of rows and cols
    f >> nr_row;
    f >> nr_col;

    float data;
    std::cerr << "Matrix dimension: " << nr_row << "x" << nr_col << std::endl;
    while (f.good()) {
        f >> data;
        if (f.good() || f.eof()) {
            if (!f.fail()) v.push_back(data);
        }
    }
    return true;
}

bool writeColMajorMatrixFile(const char *fn, int nr_row, int nr_col, std::vector<float> &v)
{
    std::cerr << "Opening file:" << fn << " for write." << std::endl;
    std::fstream f(fn, std::fstream::out);
    if (!f.good()) {
        return false;
    }

    // Write # of rows and cols
    f << nr_row << " " << nr_col << " ";

    std::cerr << "Matrix dimension: " << nr_row << "x" << nr_col << std::endl;
    for (std::vector<float>::iterator it = v.begin(); it != v.end(); ++it) {
        f << *it << " ";
    }
    f << "\n";
    return true;
}
