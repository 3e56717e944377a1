// multi_declarator_host.cpp: the host file of multi_declarator_variables.cu,
// compiled by the host compiler alone. Its globals have the names of the
// kernel file's device variables, as a solver's host file keeps host copies
// of the constants it sends to the device.
double wave_a2 = 100.0, wave_tau = 200.0;
int grid_x0 = 300, grid_y0 = 400;

double host_constant_sum() { return wave_a2 + wave_tau + grid_x0 + grid_y0; }
