// surface_variable.cu: an error that quotes a variable named `surface`
// (an undeclared one) is not about surface references: no note.
int main() { return surface + 1; }
