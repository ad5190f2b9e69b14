.LBB0_7:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	s_add_u32 s2, s2, 0x80
	s_addc_u32 s3, s3, 0
	v_mov_b64_e32 v[150:151], s[6:7]
	v_cmp_lt_i64_e32 vcc, s[2:3], v[150:151]
	buffer_store_dword v3, v2, s[16:19], 0 offen
	global_store_dwordx4 v[4:5], v[0:3], off
	v_cvt_f32_u32_e32 v1, s3
	v_mul_f32_e32 v1, 0x4f7ffffe, v1
	v_mad_u64_u32 v[108:109], s[4:5], s14, 12, v[128:129]
	s_and_b64 vcc, exec, vcc
	s_cbranch_vccnz .LBB0_7
