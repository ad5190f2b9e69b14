; main loop of pipeline-opt --pipeline='pingpong{is_fp8=false}' --emit=asm
.LBB0_7:
	v_add_u32_e32 v150, v143, v0
	s_mov_b32 m0, s34
	v_add_u32_e32 v151, 0x80, v150
	buffer_load_dwordx4 v151, s[16:19], 0 offen lds
	v_add_u32_e32 v151, v142, v0
	v_add_u32_e32 v152, 0x80, v151
	s_mov_b32 m0, s35
	v_add_u32_e32 v150, 0x100, v150
	buffer_load_dwordx4 v152, s[16:19], 0 offen lds
	ds_read_b128 v[158:161], v135
	ds_read_b128 v[162:165], v135 offset:64
	ds_read_b128 v[166:169], v135 offset:2048
	ds_read_b128 v[170:173], v135 offset:2112
	ds_read_b128 v[174:177], v1
	ds_read_b128 v[178:181], v1 offset:64
	ds_read_b128 v[182:185], v1 offset:2048
	ds_read_b128 v[186:189], v1 offset:2112
	ds_read_b128 v[190:193], v1 offset:4096
	ds_read_b128 v[194:197], v1 offset:4160
	ds_read_b128 v[198:201], v1 offset:6144
	ds_read_b128 v[202:205], v1 offset:6208
	v_add_u32_e32 v151, 0x100, v151
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(8)
	; sched_barrier mask(0x00000000)
	s_barrier
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_setprio 1
	v_mfma_f32_16x16x32_bf16 v[10:13], v[174:177], v[158:161], v[10:13]
	v_mfma_f32_16x16x32_bf16 v[18:21], v[174:177], v[166:169], v[18:21]
	v_mfma_f32_16x16x32_bf16 v[26:29], v[182:185], v[158:161], v[26:29]
	v_mfma_f32_16x16x32_bf16 v[34:37], v[182:185], v[166:169], v[34:37]
	v_mfma_f32_16x16x32_bf16 v[58:61], v[190:193], v[158:161], v[58:61]
	v_mfma_f32_16x16x32_bf16 v[66:69], v[190:193], v[166:169], v[66:69]
	v_mfma_f32_16x16x32_bf16 v[90:93], v[198:201], v[158:161], v[90:93]
	v_mfma_f32_16x16x32_bf16 v[94:97], v[198:201], v[166:169], v[94:97]
	v_mfma_f32_16x16x32_bf16 v[10:13], v[178:181], v[162:165], v[10:13]
	v_mfma_f32_16x16x32_bf16 v[18:21], v[178:181], v[170:173], v[18:21]
	v_mfma_f32_16x16x32_bf16 v[26:29], v[186:189], v[162:165], v[26:29]
	v_mfma_f32_16x16x32_bf16 v[34:37], v[186:189], v[170:173], v[34:37]
	v_mfma_f32_16x16x32_bf16 v[58:61], v[194:197], v[162:165], v[58:61]
	v_mfma_f32_16x16x32_bf16 v[66:69], v[194:197], v[170:173], v[66:69]
	v_mfma_f32_16x16x32_bf16 v[90:93], v[202:205], v[162:165], v[90:93]
	v_mfma_f32_16x16x32_bf16 v[94:97], v[202:205], v[170:173], v[94:97]
	s_setprio 0
	s_barrier
	; sched_barrier mask(0x00000000)
	v_add_u32_e32 v152, v149, v0
	s_mov_b32 m0, s24
	v_add_u32_e32 v153, 0x100, v152
	buffer_load_dwordx4 v153, s[20:23], 0 offen lds
	v_add_u32_e32 v153, v148, v0
	v_add_u32_e32 v154, 0x100, v153
	s_mov_b32 m0, s36
	ds_read_b128 v[206:209], v136
	ds_read_b128 v[210:213], v136 offset:64
	ds_read_b128 v[214:217], v136 offset:2048
	ds_read_b128 v[218:221], v136 offset:2112
	buffer_load_dwordx4 v154, s[20:23], 0 offen lds
	s_barrier
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_setprio 1
	v_mfma_f32_16x16x32_bf16 v[2:5], v[174:177], v[206:209], v[2:5]
	v_mfma_f32_16x16x32_bf16 v[6:9], v[174:177], v[214:217], v[6:9]
	v_mfma_f32_16x16x32_bf16 v[14:17], v[182:185], v[206:209], v[14:17]
	v_mfma_f32_16x16x32_bf16 v[22:25], v[182:185], v[214:217], v[22:25]
	v_mfma_f32_16x16x32_bf16 v[30:33], v[190:193], v[206:209], v[30:33]
	v_mfma_f32_16x16x32_bf16 v[38:41], v[190:193], v[214:217], v[38:41]
	v_mfma_f32_16x16x32_bf16 v[62:65], v[198:201], v[206:209], v[62:65]
	v_mfma_f32_16x16x32_bf16 v[70:73], v[198:201], v[214:217], v[70:73]
	v_mfma_f32_16x16x32_bf16 v[2:5], v[178:181], v[210:213], v[2:5]
	v_mfma_f32_16x16x32_bf16 v[6:9], v[178:181], v[218:221], v[6:9]
	v_mfma_f32_16x16x32_bf16 v[14:17], v[186:189], v[210:213], v[14:17]
	v_mfma_f32_16x16x32_bf16 v[22:25], v[186:189], v[218:221], v[22:25]
	v_mfma_f32_16x16x32_bf16 v[30:33], v[194:197], v[210:213], v[30:33]
	v_mfma_f32_16x16x32_bf16 v[38:41], v[194:197], v[218:221], v[38:41]
	v_mfma_f32_16x16x32_bf16 v[62:65], v[202:205], v[210:213], v[62:65]
	v_mfma_f32_16x16x32_bf16 v[70:73], v[202:205], v[218:221], v[70:73]
	s_setprio 0
	s_barrier
	; sched_barrier mask(0x00000000)
	v_add_u32_e32 v154, v147, v0
	s_mov_b32 m0, s15
	v_add_u32_e32 v155, 0x100, v154
	buffer_load_dwordx4 v155, s[16:19], 0 offen lds
	v_add_u32_e32 v155, v146, v0
	v_add_u32_e32 v156, 0x100, v155
	s_mov_b32 m0, s25
	ds_read_b128 v[174:177], v137
	ds_read_b128 v[178:181], v137 offset:64
	ds_read_b128 v[182:185], v137 offset:2048
	ds_read_b128 v[186:189], v137 offset:2112
	ds_read_b128 v[190:193], v137 offset:4096
	ds_read_b128 v[194:197], v137 offset:4160
	ds_read_b128 v[198:201], v137 offset:6144
	ds_read_b128 v[202:205], v137 offset:6208
	buffer_load_dwordx4 v156, s[16:19], 0 offen lds
	s_barrier
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_setprio 1
	v_mfma_f32_16x16x32_bf16 v[46:49], v[174:177], v[158:161], v[46:49]
	v_mfma_f32_16x16x32_bf16 v[54:57], v[174:177], v[166:169], v[54:57]
	v_mfma_f32_16x16x32_bf16 v[78:81], v[182:185], v[158:161], v[78:81]
	v_mfma_f32_16x16x32_bf16 v[86:89], v[182:185], v[166:169], v[86:89]
	v_mfma_f32_16x16x32_bf16 v[102:105], v[190:193], v[158:161], v[102:105]
	v_mfma_f32_16x16x32_bf16 v[110:113], v[190:193], v[166:169], v[110:113]
	v_mfma_f32_16x16x32_bf16 v[118:121], v[198:201], v[158:161], v[118:121]
	v_mfma_f32_16x16x32_bf16 v[126:129], v[198:201], v[166:169], v[126:129]
	v_mfma_f32_16x16x32_bf16 v[46:49], v[178:181], v[162:165], v[46:49]
	v_mfma_f32_16x16x32_bf16 v[54:57], v[178:181], v[170:173], v[54:57]
	v_mfma_f32_16x16x32_bf16 v[78:81], v[186:189], v[162:165], v[78:81]
	v_mfma_f32_16x16x32_bf16 v[86:89], v[186:189], v[170:173], v[86:89]
	v_mfma_f32_16x16x32_bf16 v[102:105], v[194:197], v[162:165], v[102:105]
	v_mfma_f32_16x16x32_bf16 v[110:113], v[194:197], v[170:173], v[110:113]
	v_mfma_f32_16x16x32_bf16 v[118:121], v[202:205], v[162:165], v[118:121]
	v_mfma_f32_16x16x32_bf16 v[126:129], v[202:205], v[170:173], v[126:129]
	s_setprio 0
	s_barrier
	; sched_barrier mask(0x00000000)
	v_add_u32_e32 v156, v145, v0
	s_mov_b32 m0, s26
	v_add_u32_e32 v157, 0x100, v156
	buffer_load_dwordx4 v157, s[20:23], 0 offen lds
	v_add_u32_e32 v157, v144, v0
	v_add_u32_e32 v158, 0x100, v157
	s_mov_b32 m0, s37
	s_nop 0
	buffer_load_dwordx4 v158, s[20:23], 0 offen lds
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(6)
	; sched_barrier mask(0x00000000)
	s_barrier
	s_setprio 1
	v_mfma_f32_16x16x32_bf16 v[42:45], v[174:177], v[206:209], v[42:45]
	v_mfma_f32_16x16x32_bf16 v[50:53], v[174:177], v[214:217], v[50:53]
	v_mfma_f32_16x16x32_bf16 v[74:77], v[182:185], v[206:209], v[74:77]
	v_mfma_f32_16x16x32_bf16 v[82:85], v[182:185], v[214:217], v[82:85]
	v_mfma_f32_16x16x32_bf16 v[98:101], v[190:193], v[206:209], v[98:101]
	v_mfma_f32_16x16x32_bf16 v[106:109], v[190:193], v[214:217], v[106:109]
	v_mfma_f32_16x16x32_bf16 v[114:117], v[198:201], v[206:209], v[114:117]
	v_mfma_f32_16x16x32_bf16 v[122:125], v[198:201], v[214:217], v[122:125]
	v_mfma_f32_16x16x32_bf16 v[42:45], v[178:181], v[210:213], v[42:45]
	v_mfma_f32_16x16x32_bf16 v[50:53], v[178:181], v[218:221], v[50:53]
	v_mfma_f32_16x16x32_bf16 v[74:77], v[186:189], v[210:213], v[74:77]
	v_mfma_f32_16x16x32_bf16 v[82:85], v[186:189], v[218:221], v[82:85]
	v_mfma_f32_16x16x32_bf16 v[98:101], v[194:197], v[210:213], v[98:101]
	v_mfma_f32_16x16x32_bf16 v[106:109], v[194:197], v[218:221], v[106:109]
	v_mfma_f32_16x16x32_bf16 v[114:117], v[202:205], v[210:213], v[114:117]
	v_mfma_f32_16x16x32_bf16 v[122:125], v[202:205], v[218:221], v[122:125]
	s_setprio 0
	s_barrier
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s27
	s_nop 0
	buffer_load_dwordx4 v150, s[16:19], 0 offen lds
	s_mov_b32 m0, s28
	s_nop 0
	buffer_load_dwordx4 v151, s[16:19], 0 offen lds
	ds_read_b128 v[158:161], v138
	ds_read_b128 v[162:165], v138 offset:64
	ds_read_b128 v[166:169], v138 offset:2048
	ds_read_b128 v[170:173], v138 offset:2112
	ds_read_b128 v[174:177], v139
	ds_read_b128 v[178:181], v139 offset:64
	ds_read_b128 v[182:185], v139 offset:2048
	ds_read_b128 v[186:189], v139 offset:2112
	ds_read_b128 v[190:193], v139 offset:4096
	ds_read_b128 v[194:197], v139 offset:4160
	ds_read_b128 v[198:201], v139 offset:6144
	ds_read_b128 v[202:205], v139 offset:6208
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(8)
	; sched_barrier mask(0x00000000)
	s_barrier
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_setprio 1
	v_mfma_f32_16x16x32_bf16 v[10:13], v[174:177], v[158:161], v[10:13]
	v_mfma_f32_16x16x32_bf16 v[18:21], v[174:177], v[166:169], v[18:21]
	v_mfma_f32_16x16x32_bf16 v[26:29], v[182:185], v[158:161], v[26:29]
	v_mfma_f32_16x16x32_bf16 v[34:37], v[182:185], v[166:169], v[34:37]
	v_mfma_f32_16x16x32_bf16 v[58:61], v[190:193], v[158:161], v[58:61]
	v_mfma_f32_16x16x32_bf16 v[66:69], v[190:193], v[166:169], v[66:69]
	v_mfma_f32_16x16x32_bf16 v[90:93], v[198:201], v[158:161], v[90:93]
	v_mfma_f32_16x16x32_bf16 v[94:97], v[198:201], v[166:169], v[94:97]
	v_mfma_f32_16x16x32_bf16 v[10:13], v[178:181], v[162:165], v[10:13]
	v_mfma_f32_16x16x32_bf16 v[18:21], v[178:181], v[170:173], v[18:21]
	v_mfma_f32_16x16x32_bf16 v[26:29], v[186:189], v[162:165], v[26:29]
	v_mfma_f32_16x16x32_bf16 v[34:37], v[186:189], v[170:173], v[34:37]
	v_mfma_f32_16x16x32_bf16 v[58:61], v[194:197], v[162:165], v[58:61]
	v_mfma_f32_16x16x32_bf16 v[66:69], v[194:197], v[170:173], v[66:69]
	v_mfma_f32_16x16x32_bf16 v[90:93], v[202:205], v[162:165], v[90:93]
	v_mfma_f32_16x16x32_bf16 v[94:97], v[202:205], v[170:173], v[94:97]
	s_setprio 0
	s_barrier
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s29
	v_add_u32_e32 v150, 0x180, v152
	buffer_load_dwordx4 v150, s[20:23], 0 offen lds
	v_add_u32_e32 v150, 0x180, v153
	s_mov_b32 m0, s38
	ds_read_b128 v[206:209], v140
	ds_read_b128 v[210:213], v140 offset:64
	ds_read_b128 v[214:217], v140 offset:2048
	ds_read_b128 v[218:221], v140 offset:2112
	buffer_load_dwordx4 v150, s[20:23], 0 offen lds
	s_barrier
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_setprio 1
	v_mfma_f32_16x16x32_bf16 v[2:5], v[174:177], v[206:209], v[2:5]
	v_mfma_f32_16x16x32_bf16 v[6:9], v[174:177], v[214:217], v[6:9]
	v_mfma_f32_16x16x32_bf16 v[14:17], v[182:185], v[206:209], v[14:17]
	v_mfma_f32_16x16x32_bf16 v[22:25], v[182:185], v[214:217], v[22:25]
	v_mfma_f32_16x16x32_bf16 v[30:33], v[190:193], v[206:209], v[30:33]
	v_mfma_f32_16x16x32_bf16 v[38:41], v[190:193], v[214:217], v[38:41]
	v_mfma_f32_16x16x32_bf16 v[62:65], v[198:201], v[206:209], v[62:65]
	v_mfma_f32_16x16x32_bf16 v[70:73], v[198:201], v[214:217], v[70:73]
	v_mfma_f32_16x16x32_bf16 v[2:5], v[178:181], v[210:213], v[2:5]
	v_mfma_f32_16x16x32_bf16 v[6:9], v[178:181], v[218:221], v[6:9]
	v_mfma_f32_16x16x32_bf16 v[14:17], v[186:189], v[210:213], v[14:17]
	v_mfma_f32_16x16x32_bf16 v[22:25], v[186:189], v[218:221], v[22:25]
	v_mfma_f32_16x16x32_bf16 v[30:33], v[194:197], v[210:213], v[30:33]
	v_mfma_f32_16x16x32_bf16 v[38:41], v[194:197], v[218:221], v[38:41]
	v_mfma_f32_16x16x32_bf16 v[62:65], v[202:205], v[210:213], v[62:65]
	v_mfma_f32_16x16x32_bf16 v[70:73], v[202:205], v[218:221], v[70:73]
	s_setprio 0
	s_barrier
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s30
	v_add_u32_e32 v150, 0x180, v154
	buffer_load_dwordx4 v150, s[16:19], 0 offen lds
	v_add_u32_e32 v150, 0x180, v155
	s_mov_b32 m0, s31
	ds_read_b128 v[152:155], v141
	ds_read_b128 v[174:177], v141 offset:64
	ds_read_b128 v[178:181], v141 offset:2048
	ds_read_b128 v[182:185], v141 offset:2112
	ds_read_b128 v[186:189], v141 offset:4096
	ds_read_b128 v[190:193], v141 offset:4160
	ds_read_b128 v[194:197], v141 offset:6144
	ds_read_b128 v[198:201], v141 offset:6208
	buffer_load_dwordx4 v150, s[16:19], 0 offen lds
	s_barrier
	; sched_barrier mask(0x00000000)
	s_waitcnt lgkmcnt(0)
	; sched_barrier mask(0x00000000)
	s_setprio 1
	v_mfma_f32_16x16x32_bf16 v[46:49], v[152:155], v[158:161], v[46:49]
	v_mfma_f32_16x16x32_bf16 v[54:57], v[152:155], v[166:169], v[54:57]
	v_mfma_f32_16x16x32_bf16 v[78:81], v[178:181], v[158:161], v[78:81]
	v_mfma_f32_16x16x32_bf16 v[86:89], v[178:181], v[166:169], v[86:89]
	v_mfma_f32_16x16x32_bf16 v[102:105], v[186:189], v[158:161], v[102:105]
	v_mfma_f32_16x16x32_bf16 v[110:113], v[186:189], v[166:169], v[110:113]
	v_mfma_f32_16x16x32_bf16 v[118:121], v[194:197], v[158:161], v[118:121]
	v_mfma_f32_16x16x32_bf16 v[126:129], v[194:197], v[166:169], v[126:129]
	v_mfma_f32_16x16x32_bf16 v[46:49], v[174:177], v[162:165], v[46:49]
	v_mfma_f32_16x16x32_bf16 v[54:57], v[174:177], v[170:173], v[54:57]
	v_mfma_f32_16x16x32_bf16 v[78:81], v[182:185], v[162:165], v[78:81]
	v_mfma_f32_16x16x32_bf16 v[86:89], v[182:185], v[170:173], v[86:89]
	v_mfma_f32_16x16x32_bf16 v[102:105], v[190:193], v[162:165], v[102:105]
	v_mfma_f32_16x16x32_bf16 v[110:113], v[190:193], v[170:173], v[110:113]
	v_mfma_f32_16x16x32_bf16 v[118:121], v[198:201], v[162:165], v[118:121]
	v_mfma_f32_16x16x32_bf16 v[126:129], v[198:201], v[170:173], v[126:129]
	s_setprio 0
	s_barrier
	; sched_barrier mask(0x00000000)
	s_mov_b32 m0, s33
	v_add_u32_e32 v150, 0x180, v156
	buffer_load_dwordx4 v150, s[20:23], 0 offen lds
	v_add_u32_e32 v150, 0x180, v157
	s_mov_b32 m0, s39
	s_nop 0
	buffer_load_dwordx4 v150, s[20:23], 0 offen lds
	; sched_barrier mask(0x00000000)
	s_waitcnt vmcnt(6)
	; sched_barrier mask(0x00000000)
	s_barrier
	s_setprio 1
	v_mfma_f32_16x16x32_bf16 v[42:45], v[152:155], v[206:209], v[42:45]
	v_mfma_f32_16x16x32_bf16 v[50:53], v[152:155], v[214:217], v[50:53]
	v_mfma_f32_16x16x32_bf16 v[74:77], v[178:181], v[206:209], v[74:77]
	v_mfma_f32_16x16x32_bf16 v[82:85], v[178:181], v[214:217], v[82:85]
	v_mfma_f32_16x16x32_bf16 v[98:101], v[186:189], v[206:209], v[98:101]
	v_mfma_f32_16x16x32_bf16 v[106:109], v[186:189], v[214:217], v[106:109]
	v_mfma_f32_16x16x32_bf16 v[114:117], v[194:197], v[206:209], v[114:117]
	v_mfma_f32_16x16x32_bf16 v[122:125], v[194:197], v[214:217], v[122:125]
	v_mfma_f32_16x16x32_bf16 v[42:45], v[174:177], v[210:213], v[42:45]
	v_mfma_f32_16x16x32_bf16 v[50:53], v[174:177], v[218:221], v[50:53]
	v_mfma_f32_16x16x32_bf16 v[74:77], v[182:185], v[210:213], v[74:77]
	v_mfma_f32_16x16x32_bf16 v[82:85], v[182:185], v[218:221], v[82:85]
	v_mfma_f32_16x16x32_bf16 v[98:101], v[190:193], v[210:213], v[98:101]
	v_mfma_f32_16x16x32_bf16 v[106:109], v[190:193], v[218:221], v[106:109]
	v_mfma_f32_16x16x32_bf16 v[114:117], v[198:201], v[210:213], v[114:117]
	v_mfma_f32_16x16x32_bf16 v[122:125], v[198:201], v[218:221], v[122:125]
	s_setprio 0
	s_add_u32 s2, s2, 0x80
	s_addc_u32 s3, s3, 0
	v_mov_b64_e32 v[150:151], s[6:7]
	v_cmp_lt_i64_e32 vcc, s[2:3], v[150:151]
	v_add_u32_e32 v142, 0x100, v142
	v_add_u32_e32 v143, 0x100, v143
	v_add_u32_e32 v144, 0x100, v144
	v_add_u32_e32 v145, 0x100, v145
	v_add_u32_e32 v146, 0x100, v146
	v_add_u32_e32 v147, 0x100, v147
	v_add_u32_e32 v148, 0x100, v148
	v_add_u32_e32 v149, 0x100, v149
	s_barrier
	s_cbranch_vccnz .LBB0_7
