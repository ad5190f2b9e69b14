	s_mov_b32 m0, s34
	v_add_u32_e32 v151, 0x80, v150
	buffer_load_dwordx4 v151, s[16:19], 0 offen lds
	s_mov_b32 m0, s35
	buffer_load_dwordx4 v152, s[16:19], 0 offen lds
	ds_read_b128 v[16:19], v0
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_16x16x32_bf16 v[0:3], v[16:19], v[16:19], v[0:3]
	s_waitcnt vmcnt(1)
	s_barrier
	ds_read_b128 v[20:23], v0 offset:4096
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_mfma_f32_16x16x32_bf16 v[4:7], v[20:23], v[16:19], v[4:7]
