.LBB0_1:
	ds_write_b128 v1, v[8:11]
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[16:19], v0
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_16x16x32_bf16 v[0:3], v[16:19], v[16:19], v[0:3]
	s_barrier
	s_cbranch_vccnz .LBB0_1
