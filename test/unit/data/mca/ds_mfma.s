	ds_read_b128 v[16:19], v0
	ds_read_b128 v[20:23], v0 offset:2048
	ds_read_b128 v[24:27], v1
	ds_read_b128 v[28:31], v1 offset:2048
	s_waitcnt lgkmcnt(2)
	v_mfma_f32_16x16x32_bf16 v[0:3], v[16:19], v[20:23], v[0:3]
	s_waitcnt lgkmcnt(0)
	v_mfma_f32_16x16x32_bf16 v[4:7], v[24:27], v[28:31], v[4:7]
	v_mfma_f32_16x16x32_bf16 v[8:11], v[24:27], v[20:23], v[8:11]
	v_mfma_f32_16x16x32_bf16 v[12:15], v[16:19], v[28:31], v[12:15]
