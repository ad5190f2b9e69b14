// An unquoted spec with commas: bash expands --pipeline=4wave{BM=128,BN=128} into
// --pipeline=4waveBM=128 --pipeline=4waveBN=128 (the last flag wins).  The message says the
// shell split it and shows the quoted form.  (lit's shell does no brace expansion: the RUN
// line gives the words bash would.)
// RUN: not pipeline-opt --pipeline=4waveBM=128 --pipeline=4waveBN=128 2>&1 | FileCheck %s
// RUN: not pipeline-opt --pipeline=4wave=128 2>&1 | FileCheck %s --check-prefix=MALFORMED

// CHECK: pipeline-opt: error: pipeline spec '4waveBN=128': '4wave' directly followed by 'BN=128' is what bash leaves of an unquoted spec with commas (it expands 4wave{a=1,b=2} into the words 4wavea=1 4waveb=2); quote the whole spec, every option inside the quotes: '4wave{...,BN=128}'
// MALFORMED: pipeline-opt: error: pipeline spec '4wave=128': malformed pipeline name '4wave=128' (expected NAME or NAME{key=value ...})
// MALFORMED-NOT: bash
