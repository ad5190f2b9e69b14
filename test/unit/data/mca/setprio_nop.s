	s_setprio 1
	v_mfma_f32_16x16x32_bf16 v[0:3], v[16:19], v[20:23], v[0:3]
	s_nop 7
	v_mfma_f32_16x16x32_bf16 v[4:7], v[0:3], v[20:23], v[4:7]
	s_nop 3
	s_setprio 0
	v_add_u32_e32 v12, v4, v5
