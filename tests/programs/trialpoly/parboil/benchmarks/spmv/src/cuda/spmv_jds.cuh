/* spmv_jds.cuh: sparse matrix-vector product in the jagged diagonal format. */
#ifndef SPMV_JDS_CUH
#define SPMV_JDS_CUH

#define WARP_BITS 5
#define MAX_DIAGONALS 5000

__constant__ int jds_ptr_int[MAX_DIAGONALS];
__constant__ int sh_zcnt_int[MAX_DIAGONALS];

__global__ void spmv_jds(float *dst_vector, const float *d_data, const int *d_index, const int *d_perm,
                         const float *__restrict__ x_vec, const int dim)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    int warp_id = ix >> WARP_BITS;

    if (ix < dim) {
        float sum = 0.0f;
        int bound = sh_zcnt_int[warp_id];
        if (bound == 0) { // a group of empty rows
            dst_vector[d_perm[ix]] = 0.0f;
            return;
        }
        // prefetch 0
        int j = jds_ptr_int[0] + ix;
        float d = d_data[j];
        int i = d_index[j];
        float t = __ldg(&x_vec[i]);

        if (bound > 1) // bound >= 2
        {
            // prefetch 1
            j = jds_ptr_int[1] + ix;
            i = d_index[j];
            int in;
            float dn;
            float tn;
            for (int k = 2; k < bound; k++) {
                // prefetch k-1
                dn = d_data[j];
                // prefetch k
                j = jds_ptr_int[k] + ix;
                in = d_index[j];
                // prefetch k-1
                tn = __ldg(&x_vec[i]);

                // compute k-2
                sum += d * t;
                // sweep to k
                i = in;
                // sweep to k-1
                d = dn;
                t = tn;
            }

            // fetch last
            dn = d_data[j];
            tn = __ldg(&x_vec[i]);

            // compute last-1
            sum += d * t;
            // sweep to last
            d = dn;
            t = tn;
        }
        // compute last
        sum += d * t; // 3 3

        dst_vector[d_perm[ix]] = sum;
    }
}

#endif
