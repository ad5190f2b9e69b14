// An older-syntax MFMA with a B-lane permutation other than the default: not read.
func.func @k(%a: vector<8xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  %m = amdgpu.mfma 16x16x32 %a * %a + %c blgp = bcast_first_32 : vector<8xf16>, vector<8xf16>, vector<4xf32>
  return %m : vector<4xf32>
}
