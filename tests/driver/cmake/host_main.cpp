/* host_main.cpp: the main of the host-linked programs (checks.cu). */
int histogram_checks();

int main() { return histogram_checks() != 0; }
