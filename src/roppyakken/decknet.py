"""A seeded deck's order by a sorting network: ``python -m roppyakken.devtools.decknet`` writes it
(not by hand: ``tests/core/test_seeded_deck_native.py`` checks it is what that tool writes).

:func:`deck_by_network` is ``engine.deck_by_digest`` (FORMATS.md §3) as straight-line native
code: compiled with the engine, each card's ``key * 64 + id`` is a native int in a local (mypyc
has no native array the core may use: a list boxes what it stores), sorted by Batcher's merge
exchange (367 comparators, each a swap of two locals).  The compiled engine orders its
seeded decks with it; interpreted, it is slower than the pure engine's C calls, which the pure
engine keeps.
"""

from __future__ import annotations

from roppyakken.compiled import i64, swap_in


def deck_by_network(digest: bytes) -> list[int]:
    """The card ids sorted by their 32-bit big-endian keys in ``digest`` (its first 192 bytes),
    the lower id first among equal keys."""
    # Each card as ``key * 64 + id``: distinct, ordered as ``(key, id)``.
    k0: i64 = (((i64(digest[0]) * 256 + digest[1]) * 256 + digest[2]) * 256 + digest[3]) * 64 + 0
    k1: i64 = (((i64(digest[4]) * 256 + digest[5]) * 256 + digest[6]) * 256 + digest[7]) * 64 + 1
    k2: i64 = (((i64(digest[8]) * 256 + digest[9]) * 256 + digest[10]) * 256 + digest[11]) * 64 + 2
    k3: i64 = (((i64(digest[12]) * 256 + digest[13]) * 256 + digest[14]) * 256 + digest[15]) * 64 + 3
    k4: i64 = (((i64(digest[16]) * 256 + digest[17]) * 256 + digest[18]) * 256 + digest[19]) * 64 + 4
    k5: i64 = (((i64(digest[20]) * 256 + digest[21]) * 256 + digest[22]) * 256 + digest[23]) * 64 + 5
    k6: i64 = (((i64(digest[24]) * 256 + digest[25]) * 256 + digest[26]) * 256 + digest[27]) * 64 + 6
    k7: i64 = (((i64(digest[28]) * 256 + digest[29]) * 256 + digest[30]) * 256 + digest[31]) * 64 + 7
    k8: i64 = (((i64(digest[32]) * 256 + digest[33]) * 256 + digest[34]) * 256 + digest[35]) * 64 + 8
    k9: i64 = (((i64(digest[36]) * 256 + digest[37]) * 256 + digest[38]) * 256 + digest[39]) * 64 + 9
    k10: i64 = (((i64(digest[40]) * 256 + digest[41]) * 256 + digest[42]) * 256 + digest[43]) * 64 + 10
    k11: i64 = (((i64(digest[44]) * 256 + digest[45]) * 256 + digest[46]) * 256 + digest[47]) * 64 + 11
    k12: i64 = (((i64(digest[48]) * 256 + digest[49]) * 256 + digest[50]) * 256 + digest[51]) * 64 + 12
    k13: i64 = (((i64(digest[52]) * 256 + digest[53]) * 256 + digest[54]) * 256 + digest[55]) * 64 + 13
    k14: i64 = (((i64(digest[56]) * 256 + digest[57]) * 256 + digest[58]) * 256 + digest[59]) * 64 + 14
    k15: i64 = (((i64(digest[60]) * 256 + digest[61]) * 256 + digest[62]) * 256 + digest[63]) * 64 + 15
    k16: i64 = (((i64(digest[64]) * 256 + digest[65]) * 256 + digest[66]) * 256 + digest[67]) * 64 + 16
    k17: i64 = (((i64(digest[68]) * 256 + digest[69]) * 256 + digest[70]) * 256 + digest[71]) * 64 + 17
    k18: i64 = (((i64(digest[72]) * 256 + digest[73]) * 256 + digest[74]) * 256 + digest[75]) * 64 + 18
    k19: i64 = (((i64(digest[76]) * 256 + digest[77]) * 256 + digest[78]) * 256 + digest[79]) * 64 + 19
    k20: i64 = (((i64(digest[80]) * 256 + digest[81]) * 256 + digest[82]) * 256 + digest[83]) * 64 + 20
    k21: i64 = (((i64(digest[84]) * 256 + digest[85]) * 256 + digest[86]) * 256 + digest[87]) * 64 + 21
    k22: i64 = (((i64(digest[88]) * 256 + digest[89]) * 256 + digest[90]) * 256 + digest[91]) * 64 + 22
    k23: i64 = (((i64(digest[92]) * 256 + digest[93]) * 256 + digest[94]) * 256 + digest[95]) * 64 + 23
    k24: i64 = (((i64(digest[96]) * 256 + digest[97]) * 256 + digest[98]) * 256 + digest[99]) * 64 + 24
    k25: i64 = (((i64(digest[100]) * 256 + digest[101]) * 256 + digest[102]) * 256 + digest[103]) * 64 + 25
    k26: i64 = (((i64(digest[104]) * 256 + digest[105]) * 256 + digest[106]) * 256 + digest[107]) * 64 + 26
    k27: i64 = (((i64(digest[108]) * 256 + digest[109]) * 256 + digest[110]) * 256 + digest[111]) * 64 + 27
    k28: i64 = (((i64(digest[112]) * 256 + digest[113]) * 256 + digest[114]) * 256 + digest[115]) * 64 + 28
    k29: i64 = (((i64(digest[116]) * 256 + digest[117]) * 256 + digest[118]) * 256 + digest[119]) * 64 + 29
    k30: i64 = (((i64(digest[120]) * 256 + digest[121]) * 256 + digest[122]) * 256 + digest[123]) * 64 + 30
    k31: i64 = (((i64(digest[124]) * 256 + digest[125]) * 256 + digest[126]) * 256 + digest[127]) * 64 + 31
    k32: i64 = (((i64(digest[128]) * 256 + digest[129]) * 256 + digest[130]) * 256 + digest[131]) * 64 + 32
    k33: i64 = (((i64(digest[132]) * 256 + digest[133]) * 256 + digest[134]) * 256 + digest[135]) * 64 + 33
    k34: i64 = (((i64(digest[136]) * 256 + digest[137]) * 256 + digest[138]) * 256 + digest[139]) * 64 + 34
    k35: i64 = (((i64(digest[140]) * 256 + digest[141]) * 256 + digest[142]) * 256 + digest[143]) * 64 + 35
    k36: i64 = (((i64(digest[144]) * 256 + digest[145]) * 256 + digest[146]) * 256 + digest[147]) * 64 + 36
    k37: i64 = (((i64(digest[148]) * 256 + digest[149]) * 256 + digest[150]) * 256 + digest[151]) * 64 + 37
    k38: i64 = (((i64(digest[152]) * 256 + digest[153]) * 256 + digest[154]) * 256 + digest[155]) * 64 + 38
    k39: i64 = (((i64(digest[156]) * 256 + digest[157]) * 256 + digest[158]) * 256 + digest[159]) * 64 + 39
    k40: i64 = (((i64(digest[160]) * 256 + digest[161]) * 256 + digest[162]) * 256 + digest[163]) * 64 + 40
    k41: i64 = (((i64(digest[164]) * 256 + digest[165]) * 256 + digest[166]) * 256 + digest[167]) * 64 + 41
    k42: i64 = (((i64(digest[168]) * 256 + digest[169]) * 256 + digest[170]) * 256 + digest[171]) * 64 + 42
    k43: i64 = (((i64(digest[172]) * 256 + digest[173]) * 256 + digest[174]) * 256 + digest[175]) * 64 + 43
    k44: i64 = (((i64(digest[176]) * 256 + digest[177]) * 256 + digest[178]) * 256 + digest[179]) * 64 + 44
    k45: i64 = (((i64(digest[180]) * 256 + digest[181]) * 256 + digest[182]) * 256 + digest[183]) * 64 + 45
    k46: i64 = (((i64(digest[184]) * 256 + digest[185]) * 256 + digest[186]) * 256 + digest[187]) * 64 + 46
    k47: i64 = (((i64(digest[188]) * 256 + digest[189]) * 256 + digest[190]) * 256 + digest[191]) * 64 + 47
    # The network: each comparator puts the lesser of two locals first.
    k0, k32 = (k32, k0) if k0 > k32 else (k0, k32)
    k1, k33 = (k33, k1) if k1 > k33 else (k1, k33)
    k2, k34 = (k34, k2) if k2 > k34 else (k2, k34)
    k3, k35 = (k35, k3) if k3 > k35 else (k3, k35)
    k4, k36 = (k36, k4) if k4 > k36 else (k4, k36)
    k5, k37 = (k37, k5) if k5 > k37 else (k5, k37)
    k6, k38 = (k38, k6) if k6 > k38 else (k6, k38)
    k7, k39 = (k39, k7) if k7 > k39 else (k7, k39)
    k8, k40 = (k40, k8) if k8 > k40 else (k8, k40)
    k9, k41 = (k41, k9) if k9 > k41 else (k9, k41)
    k10, k42 = (k42, k10) if k10 > k42 else (k10, k42)
    k11, k43 = (k43, k11) if k11 > k43 else (k11, k43)
    k12, k44 = (k44, k12) if k12 > k44 else (k12, k44)
    k13, k45 = (k45, k13) if k13 > k45 else (k13, k45)
    k14, k46 = (k46, k14) if k14 > k46 else (k14, k46)
    k15, k47 = (k47, k15) if k15 > k47 else (k15, k47)
    k0, k16 = (k16, k0) if k0 > k16 else (k0, k16)
    k1, k17 = (k17, k1) if k1 > k17 else (k1, k17)
    k2, k18 = (k18, k2) if k2 > k18 else (k2, k18)
    k3, k19 = (k19, k3) if k3 > k19 else (k3, k19)
    k4, k20 = (k20, k4) if k4 > k20 else (k4, k20)
    k5, k21 = (k21, k5) if k5 > k21 else (k5, k21)
    k6, k22 = (k22, k6) if k6 > k22 else (k6, k22)
    k7, k23 = (k23, k7) if k7 > k23 else (k7, k23)
    k8, k24 = (k24, k8) if k8 > k24 else (k8, k24)
    k9, k25 = (k25, k9) if k9 > k25 else (k9, k25)
    k10, k26 = (k26, k10) if k10 > k26 else (k10, k26)
    k11, k27 = (k27, k11) if k11 > k27 else (k11, k27)
    k12, k28 = (k28, k12) if k12 > k28 else (k12, k28)
    k13, k29 = (k29, k13) if k13 > k29 else (k13, k29)
    k14, k30 = (k30, k14) if k14 > k30 else (k14, k30)
    k15, k31 = (k31, k15) if k15 > k31 else (k15, k31)
    k16, k32 = (k32, k16) if k16 > k32 else (k16, k32)
    k17, k33 = (k33, k17) if k17 > k33 else (k17, k33)
    k18, k34 = (k34, k18) if k18 > k34 else (k18, k34)
    k19, k35 = (k35, k19) if k19 > k35 else (k19, k35)
    k20, k36 = (k36, k20) if k20 > k36 else (k20, k36)
    k21, k37 = (k37, k21) if k21 > k37 else (k21, k37)
    k22, k38 = (k38, k22) if k22 > k38 else (k22, k38)
    k23, k39 = (k39, k23) if k23 > k39 else (k23, k39)
    k24, k40 = (k40, k24) if k24 > k40 else (k24, k40)
    k25, k41 = (k41, k25) if k25 > k41 else (k25, k41)
    k26, k42 = (k42, k26) if k26 > k42 else (k26, k42)
    k27, k43 = (k43, k27) if k27 > k43 else (k27, k43)
    k28, k44 = (k44, k28) if k28 > k44 else (k28, k44)
    k29, k45 = (k45, k29) if k29 > k45 else (k29, k45)
    k30, k46 = (k46, k30) if k30 > k46 else (k30, k46)
    k31, k47 = (k47, k31) if k31 > k47 else (k31, k47)
    k0, k8 = (k8, k0) if k0 > k8 else (k0, k8)
    k1, k9 = (k9, k1) if k1 > k9 else (k1, k9)
    k2, k10 = (k10, k2) if k2 > k10 else (k2, k10)
    k3, k11 = (k11, k3) if k3 > k11 else (k3, k11)
    k4, k12 = (k12, k4) if k4 > k12 else (k4, k12)
    k5, k13 = (k13, k5) if k5 > k13 else (k5, k13)
    k6, k14 = (k14, k6) if k6 > k14 else (k6, k14)
    k7, k15 = (k15, k7) if k7 > k15 else (k7, k15)
    k16, k24 = (k24, k16) if k16 > k24 else (k16, k24)
    k17, k25 = (k25, k17) if k17 > k25 else (k17, k25)
    k18, k26 = (k26, k18) if k18 > k26 else (k18, k26)
    k19, k27 = (k27, k19) if k19 > k27 else (k19, k27)
    k20, k28 = (k28, k20) if k20 > k28 else (k20, k28)
    k21, k29 = (k29, k21) if k21 > k29 else (k21, k29)
    k22, k30 = (k30, k22) if k22 > k30 else (k22, k30)
    k23, k31 = (k31, k23) if k23 > k31 else (k23, k31)
    k32, k40 = (k40, k32) if k32 > k40 else (k32, k40)
    k33, k41 = (k41, k33) if k33 > k41 else (k33, k41)
    k34, k42 = (k42, k34) if k34 > k42 else (k34, k42)
    k35, k43 = (k43, k35) if k35 > k43 else (k35, k43)
    k36, k44 = (k44, k36) if k36 > k44 else (k36, k44)
    k37, k45 = (k45, k37) if k37 > k45 else (k37, k45)
    k38, k46 = (k46, k38) if k38 > k46 else (k38, k46)
    k39, k47 = (k47, k39) if k39 > k47 else (k39, k47)
    k8, k32 = (k32, k8) if k8 > k32 else (k8, k32)
    k9, k33 = (k33, k9) if k9 > k33 else (k9, k33)
    k10, k34 = (k34, k10) if k10 > k34 else (k10, k34)
    k11, k35 = (k35, k11) if k11 > k35 else (k11, k35)
    k12, k36 = (k36, k12) if k12 > k36 else (k12, k36)
    k13, k37 = (k37, k13) if k13 > k37 else (k13, k37)
    k14, k38 = (k38, k14) if k14 > k38 else (k14, k38)
    k15, k39 = (k39, k15) if k15 > k39 else (k15, k39)
    k8, k16 = (k16, k8) if k8 > k16 else (k8, k16)
    k9, k17 = (k17, k9) if k9 > k17 else (k9, k17)
    k10, k18 = (k18, k10) if k10 > k18 else (k10, k18)
    k11, k19 = (k19, k11) if k11 > k19 else (k11, k19)
    k12, k20 = (k20, k12) if k12 > k20 else (k12, k20)
    k13, k21 = (k21, k13) if k13 > k21 else (k13, k21)
    k14, k22 = (k22, k14) if k14 > k22 else (k14, k22)
    k15, k23 = (k23, k15) if k15 > k23 else (k15, k23)
    k24, k32 = (k32, k24) if k24 > k32 else (k24, k32)
    k25, k33 = (k33, k25) if k25 > k33 else (k25, k33)
    k26, k34 = (k34, k26) if k26 > k34 else (k26, k34)
    k27, k35 = (k35, k27) if k27 > k35 else (k27, k35)
    k28, k36 = (k36, k28) if k28 > k36 else (k28, k36)
    k29, k37 = (k37, k29) if k29 > k37 else (k29, k37)
    k30, k38 = (k38, k30) if k30 > k38 else (k30, k38)
    k31, k39 = (k39, k31) if k31 > k39 else (k31, k39)
    k0, k4 = (k4, k0) if k0 > k4 else (k0, k4)
    k1, k5 = (k5, k1) if k1 > k5 else (k1, k5)
    k2, k6 = (k6, k2) if k2 > k6 else (k2, k6)
    k3, k7 = (k7, k3) if k3 > k7 else (k3, k7)
    k8, k12 = (k12, k8) if k8 > k12 else (k8, k12)
    k9, k13 = (k13, k9) if k9 > k13 else (k9, k13)
    k10, k14 = (k14, k10) if k10 > k14 else (k10, k14)
    k11, k15 = (k15, k11) if k11 > k15 else (k11, k15)
    k16, k20 = (k20, k16) if k16 > k20 else (k16, k20)
    k17, k21 = (k21, k17) if k17 > k21 else (k17, k21)
    k18, k22 = (k22, k18) if k18 > k22 else (k18, k22)
    k19, k23 = (k23, k19) if k19 > k23 else (k19, k23)
    k24, k28 = (k28, k24) if k24 > k28 else (k24, k28)
    k25, k29 = (k29, k25) if k25 > k29 else (k25, k29)
    k26, k30 = (k30, k26) if k26 > k30 else (k26, k30)
    k27, k31 = (k31, k27) if k27 > k31 else (k27, k31)
    k32, k36 = (k36, k32) if k32 > k36 else (k32, k36)
    k33, k37 = (k37, k33) if k33 > k37 else (k33, k37)
    k34, k38 = (k38, k34) if k34 > k38 else (k34, k38)
    k35, k39 = (k39, k35) if k35 > k39 else (k35, k39)
    k40, k44 = (k44, k40) if k40 > k44 else (k40, k44)
    k41, k45 = (k45, k41) if k41 > k45 else (k41, k45)
    k42, k46 = (k46, k42) if k42 > k46 else (k42, k46)
    k43, k47 = (k47, k43) if k43 > k47 else (k43, k47)
    k4, k32 = (k32, k4) if k4 > k32 else (k4, k32)
    k5, k33 = (k33, k5) if k5 > k33 else (k5, k33)
    k6, k34 = (k34, k6) if k6 > k34 else (k6, k34)
    k7, k35 = (k35, k7) if k7 > k35 else (k7, k35)
    k12, k40 = (k40, k12) if k12 > k40 else (k12, k40)
    k13, k41 = (k41, k13) if k13 > k41 else (k13, k41)
    k14, k42 = (k42, k14) if k14 > k42 else (k14, k42)
    k15, k43 = (k43, k15) if k15 > k43 else (k15, k43)
    k4, k16 = (k16, k4) if k4 > k16 else (k4, k16)
    k5, k17 = (k17, k5) if k5 > k17 else (k5, k17)
    k6, k18 = (k18, k6) if k6 > k18 else (k6, k18)
    k7, k19 = (k19, k7) if k7 > k19 else (k7, k19)
    k12, k24 = (k24, k12) if k12 > k24 else (k12, k24)
    k13, k25 = (k25, k13) if k13 > k25 else (k13, k25)
    k14, k26 = (k26, k14) if k14 > k26 else (k14, k26)
    k15, k27 = (k27, k15) if k15 > k27 else (k15, k27)
    k20, k32 = (k32, k20) if k20 > k32 else (k20, k32)
    k21, k33 = (k33, k21) if k21 > k33 else (k21, k33)
    k22, k34 = (k34, k22) if k22 > k34 else (k22, k34)
    k23, k35 = (k35, k23) if k23 > k35 else (k23, k35)
    k28, k40 = (k40, k28) if k28 > k40 else (k28, k40)
    k29, k41 = (k41, k29) if k29 > k41 else (k29, k41)
    k30, k42 = (k42, k30) if k30 > k42 else (k30, k42)
    k31, k43 = (k43, k31) if k31 > k43 else (k31, k43)
    k4, k8 = (k8, k4) if k4 > k8 else (k4, k8)
    k5, k9 = (k9, k5) if k5 > k9 else (k5, k9)
    k6, k10 = (k10, k6) if k6 > k10 else (k6, k10)
    k7, k11 = (k11, k7) if k7 > k11 else (k7, k11)
    k12, k16 = (k16, k12) if k12 > k16 else (k12, k16)
    k13, k17 = (k17, k13) if k13 > k17 else (k13, k17)
    k14, k18 = (k18, k14) if k14 > k18 else (k14, k18)
    k15, k19 = (k19, k15) if k15 > k19 else (k15, k19)
    k20, k24 = (k24, k20) if k20 > k24 else (k20, k24)
    k21, k25 = (k25, k21) if k21 > k25 else (k21, k25)
    k22, k26 = (k26, k22) if k22 > k26 else (k22, k26)
    k23, k27 = (k27, k23) if k23 > k27 else (k23, k27)
    k28, k32 = (k32, k28) if k28 > k32 else (k28, k32)
    k29, k33 = (k33, k29) if k29 > k33 else (k29, k33)
    k30, k34 = (k34, k30) if k30 > k34 else (k30, k34)
    k31, k35 = (k35, k31) if k31 > k35 else (k31, k35)
    k36, k40 = (k40, k36) if k36 > k40 else (k36, k40)
    k37, k41 = (k41, k37) if k37 > k41 else (k37, k41)
    k38, k42 = (k42, k38) if k38 > k42 else (k38, k42)
    k39, k43 = (k43, k39) if k39 > k43 else (k39, k43)
    k0, k2 = (k2, k0) if k0 > k2 else (k0, k2)
    k1, k3 = (k3, k1) if k1 > k3 else (k1, k3)
    k4, k6 = (k6, k4) if k4 > k6 else (k4, k6)
    k5, k7 = (k7, k5) if k5 > k7 else (k5, k7)
    k8, k10 = (k10, k8) if k8 > k10 else (k8, k10)
    k9, k11 = (k11, k9) if k9 > k11 else (k9, k11)
    k12, k14 = (k14, k12) if k12 > k14 else (k12, k14)
    k13, k15 = (k15, k13) if k13 > k15 else (k13, k15)
    k16, k18 = (k18, k16) if k16 > k18 else (k16, k18)
    k17, k19 = (k19, k17) if k17 > k19 else (k17, k19)
    k20, k22 = (k22, k20) if k20 > k22 else (k20, k22)
    k21, k23 = (k23, k21) if k21 > k23 else (k21, k23)
    k24, k26 = (k26, k24) if k24 > k26 else (k24, k26)
    k25, k27 = (k27, k25) if k25 > k27 else (k25, k27)
    k28, k30 = (k30, k28) if k28 > k30 else (k28, k30)
    k29, k31 = (k31, k29) if k29 > k31 else (k29, k31)
    k32, k34 = (k34, k32) if k32 > k34 else (k32, k34)
    k33, k35 = (k35, k33) if k33 > k35 else (k33, k35)
    k36, k38 = (k38, k36) if k36 > k38 else (k36, k38)
    k37, k39 = (k39, k37) if k37 > k39 else (k37, k39)
    k40, k42 = (k42, k40) if k40 > k42 else (k40, k42)
    k41, k43 = (k43, k41) if k41 > k43 else (k41, k43)
    k44, k46 = (k46, k44) if k44 > k46 else (k44, k46)
    k45, k47 = (k47, k45) if k45 > k47 else (k45, k47)
    k2, k32 = (k32, k2) if k2 > k32 else (k2, k32)
    k3, k33 = (k33, k3) if k3 > k33 else (k3, k33)
    k6, k36 = (k36, k6) if k6 > k36 else (k6, k36)
    k7, k37 = (k37, k7) if k7 > k37 else (k7, k37)
    k10, k40 = (k40, k10) if k10 > k40 else (k10, k40)
    k11, k41 = (k41, k11) if k11 > k41 else (k11, k41)
    k14, k44 = (k44, k14) if k14 > k44 else (k14, k44)
    k15, k45 = (k45, k15) if k15 > k45 else (k15, k45)
    k2, k16 = (k16, k2) if k2 > k16 else (k2, k16)
    k3, k17 = (k17, k3) if k3 > k17 else (k3, k17)
    k6, k20 = (k20, k6) if k6 > k20 else (k6, k20)
    k7, k21 = (k21, k7) if k7 > k21 else (k7, k21)
    k10, k24 = (k24, k10) if k10 > k24 else (k10, k24)
    k11, k25 = (k25, k11) if k11 > k25 else (k11, k25)
    k14, k28 = (k28, k14) if k14 > k28 else (k14, k28)
    k15, k29 = (k29, k15) if k15 > k29 else (k15, k29)
    k18, k32 = (k32, k18) if k18 > k32 else (k18, k32)
    k19, k33 = (k33, k19) if k19 > k33 else (k19, k33)
    k22, k36 = (k36, k22) if k22 > k36 else (k22, k36)
    k23, k37 = (k37, k23) if k23 > k37 else (k23, k37)
    k26, k40 = (k40, k26) if k26 > k40 else (k26, k40)
    k27, k41 = (k41, k27) if k27 > k41 else (k27, k41)
    k30, k44 = (k44, k30) if k30 > k44 else (k30, k44)
    k31, k45 = (k45, k31) if k31 > k45 else (k31, k45)
    k2, k8 = (k8, k2) if k2 > k8 else (k2, k8)
    k3, k9 = (k9, k3) if k3 > k9 else (k3, k9)
    k6, k12 = (k12, k6) if k6 > k12 else (k6, k12)
    k7, k13 = (k13, k7) if k7 > k13 else (k7, k13)
    k10, k16 = (k16, k10) if k10 > k16 else (k10, k16)
    k11, k17 = (k17, k11) if k11 > k17 else (k11, k17)
    k14, k20 = (k20, k14) if k14 > k20 else (k14, k20)
    k15, k21 = (k21, k15) if k15 > k21 else (k15, k21)
    k18, k24 = (k24, k18) if k18 > k24 else (k18, k24)
    k19, k25 = (k25, k19) if k19 > k25 else (k19, k25)
    k22, k28 = (k28, k22) if k22 > k28 else (k22, k28)
    k23, k29 = (k29, k23) if k23 > k29 else (k23, k29)
    k26, k32 = (k32, k26) if k26 > k32 else (k26, k32)
    k27, k33 = (k33, k27) if k27 > k33 else (k27, k33)
    k30, k36 = (k36, k30) if k30 > k36 else (k30, k36)
    k31, k37 = (k37, k31) if k31 > k37 else (k31, k37)
    k34, k40 = (k40, k34) if k34 > k40 else (k34, k40)
    k35, k41 = (k41, k35) if k35 > k41 else (k35, k41)
    k38, k44 = (k44, k38) if k38 > k44 else (k38, k44)
    k39, k45 = (k45, k39) if k39 > k45 else (k39, k45)
    k2, k4 = (k4, k2) if k2 > k4 else (k2, k4)
    k3, k5 = (k5, k3) if k3 > k5 else (k3, k5)
    k6, k8 = (k8, k6) if k6 > k8 else (k6, k8)
    k7, k9 = (k9, k7) if k7 > k9 else (k7, k9)
    k10, k12 = (k12, k10) if k10 > k12 else (k10, k12)
    k11, k13 = (k13, k11) if k11 > k13 else (k11, k13)
    k14, k16 = (k16, k14) if k14 > k16 else (k14, k16)
    k15, k17 = (k17, k15) if k15 > k17 else (k15, k17)
    k18, k20 = (k20, k18) if k18 > k20 else (k18, k20)
    k19, k21 = (k21, k19) if k19 > k21 else (k19, k21)
    k22, k24 = (k24, k22) if k22 > k24 else (k22, k24)
    k23, k25 = (k25, k23) if k23 > k25 else (k23, k25)
    k26, k28 = (k28, k26) if k26 > k28 else (k26, k28)
    k27, k29 = (k29, k27) if k27 > k29 else (k27, k29)
    k30, k32 = (k32, k30) if k30 > k32 else (k30, k32)
    k31, k33 = (k33, k31) if k31 > k33 else (k31, k33)
    k34, k36 = (k36, k34) if k34 > k36 else (k34, k36)
    k35, k37 = (k37, k35) if k35 > k37 else (k35, k37)
    k38, k40 = (k40, k38) if k38 > k40 else (k38, k40)
    k39, k41 = (k41, k39) if k39 > k41 else (k39, k41)
    k42, k44 = (k44, k42) if k42 > k44 else (k42, k44)
    k43, k45 = (k45, k43) if k43 > k45 else (k43, k45)
    k0, k1 = (k1, k0) if k0 > k1 else (k0, k1)
    k2, k3 = (k3, k2) if k2 > k3 else (k2, k3)
    k4, k5 = (k5, k4) if k4 > k5 else (k4, k5)
    k6, k7 = (k7, k6) if k6 > k7 else (k6, k7)
    k8, k9 = (k9, k8) if k8 > k9 else (k8, k9)
    k10, k11 = (k11, k10) if k10 > k11 else (k10, k11)
    k12, k13 = (k13, k12) if k12 > k13 else (k12, k13)
    k14, k15 = (k15, k14) if k14 > k15 else (k14, k15)
    k16, k17 = (k17, k16) if k16 > k17 else (k16, k17)
    k18, k19 = (k19, k18) if k18 > k19 else (k18, k19)
    k20, k21 = (k21, k20) if k20 > k21 else (k20, k21)
    k22, k23 = (k23, k22) if k22 > k23 else (k22, k23)
    k24, k25 = (k25, k24) if k24 > k25 else (k24, k25)
    k26, k27 = (k27, k26) if k26 > k27 else (k26, k27)
    k28, k29 = (k29, k28) if k28 > k29 else (k28, k29)
    k30, k31 = (k31, k30) if k30 > k31 else (k30, k31)
    k32, k33 = (k33, k32) if k32 > k33 else (k32, k33)
    k34, k35 = (k35, k34) if k34 > k35 else (k34, k35)
    k36, k37 = (k37, k36) if k36 > k37 else (k36, k37)
    k38, k39 = (k39, k38) if k38 > k39 else (k38, k39)
    k40, k41 = (k41, k40) if k40 > k41 else (k40, k41)
    k42, k43 = (k43, k42) if k42 > k43 else (k42, k43)
    k44, k45 = (k45, k44) if k44 > k45 else (k44, k45)
    k46, k47 = (k47, k46) if k46 > k47 else (k46, k47)
    k1, k32 = (k32, k1) if k1 > k32 else (k1, k32)
    k3, k34 = (k34, k3) if k3 > k34 else (k3, k34)
    k5, k36 = (k36, k5) if k5 > k36 else (k5, k36)
    k7, k38 = (k38, k7) if k7 > k38 else (k7, k38)
    k9, k40 = (k40, k9) if k9 > k40 else (k9, k40)
    k11, k42 = (k42, k11) if k11 > k42 else (k11, k42)
    k13, k44 = (k44, k13) if k13 > k44 else (k13, k44)
    k15, k46 = (k46, k15) if k15 > k46 else (k15, k46)
    k1, k16 = (k16, k1) if k1 > k16 else (k1, k16)
    k3, k18 = (k18, k3) if k3 > k18 else (k3, k18)
    k5, k20 = (k20, k5) if k5 > k20 else (k5, k20)
    k7, k22 = (k22, k7) if k7 > k22 else (k7, k22)
    k9, k24 = (k24, k9) if k9 > k24 else (k9, k24)
    k11, k26 = (k26, k11) if k11 > k26 else (k11, k26)
    k13, k28 = (k28, k13) if k13 > k28 else (k13, k28)
    k15, k30 = (k30, k15) if k15 > k30 else (k15, k30)
    k17, k32 = (k32, k17) if k17 > k32 else (k17, k32)
    k19, k34 = (k34, k19) if k19 > k34 else (k19, k34)
    k21, k36 = (k36, k21) if k21 > k36 else (k21, k36)
    k23, k38 = (k38, k23) if k23 > k38 else (k23, k38)
    k25, k40 = (k40, k25) if k25 > k40 else (k25, k40)
    k27, k42 = (k42, k27) if k27 > k42 else (k27, k42)
    k29, k44 = (k44, k29) if k29 > k44 else (k29, k44)
    k31, k46 = (k46, k31) if k31 > k46 else (k31, k46)
    k1, k8 = (k8, k1) if k1 > k8 else (k1, k8)
    k3, k10 = (k10, k3) if k3 > k10 else (k3, k10)
    k5, k12 = (k12, k5) if k5 > k12 else (k5, k12)
    k7, k14 = (k14, k7) if k7 > k14 else (k7, k14)
    k9, k16 = (k16, k9) if k9 > k16 else (k9, k16)
    k11, k18 = (k18, k11) if k11 > k18 else (k11, k18)
    k13, k20 = (k20, k13) if k13 > k20 else (k13, k20)
    k15, k22 = (k22, k15) if k15 > k22 else (k15, k22)
    k17, k24 = (k24, k17) if k17 > k24 else (k17, k24)
    k19, k26 = (k26, k19) if k19 > k26 else (k19, k26)
    k21, k28 = (k28, k21) if k21 > k28 else (k21, k28)
    k23, k30 = (k30, k23) if k23 > k30 else (k23, k30)
    k25, k32 = (k32, k25) if k25 > k32 else (k25, k32)
    k27, k34 = (k34, k27) if k27 > k34 else (k27, k34)
    k29, k36 = (k36, k29) if k29 > k36 else (k29, k36)
    k31, k38 = (k38, k31) if k31 > k38 else (k31, k38)
    k33, k40 = (k40, k33) if k33 > k40 else (k33, k40)
    k35, k42 = (k42, k35) if k35 > k42 else (k35, k42)
    k37, k44 = (k44, k37) if k37 > k44 else (k37, k44)
    k39, k46 = (k46, k39) if k39 > k46 else (k39, k46)
    k1, k4 = (k4, k1) if k1 > k4 else (k1, k4)
    k3, k6 = (k6, k3) if k3 > k6 else (k3, k6)
    k5, k8 = (k8, k5) if k5 > k8 else (k5, k8)
    k7, k10 = (k10, k7) if k7 > k10 else (k7, k10)
    k9, k12 = (k12, k9) if k9 > k12 else (k9, k12)
    k11, k14 = (k14, k11) if k11 > k14 else (k11, k14)
    k13, k16 = (k16, k13) if k13 > k16 else (k13, k16)
    k15, k18 = (k18, k15) if k15 > k18 else (k15, k18)
    k17, k20 = (k20, k17) if k17 > k20 else (k17, k20)
    k19, k22 = (k22, k19) if k19 > k22 else (k19, k22)
    k21, k24 = (k24, k21) if k21 > k24 else (k21, k24)
    k23, k26 = (k26, k23) if k23 > k26 else (k23, k26)
    k25, k28 = (k28, k25) if k25 > k28 else (k25, k28)
    k27, k30 = (k30, k27) if k27 > k30 else (k27, k30)
    k29, k32 = (k32, k29) if k29 > k32 else (k29, k32)
    k31, k34 = (k34, k31) if k31 > k34 else (k31, k34)
    k33, k36 = (k36, k33) if k33 > k36 else (k33, k36)
    k35, k38 = (k38, k35) if k35 > k38 else (k35, k38)
    k37, k40 = (k40, k37) if k37 > k40 else (k37, k40)
    k39, k42 = (k42, k39) if k39 > k42 else (k39, k42)
    k41, k44 = (k44, k41) if k41 > k44 else (k41, k44)
    k43, k46 = (k46, k43) if k43 > k46 else (k43, k46)
    k1, k2 = (k2, k1) if k1 > k2 else (k1, k2)
    k3, k4 = (k4, k3) if k3 > k4 else (k3, k4)
    k5, k6 = (k6, k5) if k5 > k6 else (k5, k6)
    k7, k8 = (k8, k7) if k7 > k8 else (k7, k8)
    k9, k10 = (k10, k9) if k9 > k10 else (k9, k10)
    k11, k12 = (k12, k11) if k11 > k12 else (k11, k12)
    k13, k14 = (k14, k13) if k13 > k14 else (k13, k14)
    k15, k16 = (k16, k15) if k15 > k16 else (k15, k16)
    k17, k18 = (k18, k17) if k17 > k18 else (k17, k18)
    k19, k20 = (k20, k19) if k19 > k20 else (k19, k20)
    k21, k22 = (k22, k21) if k21 > k22 else (k21, k22)
    k23, k24 = (k24, k23) if k23 > k24 else (k23, k24)
    k25, k26 = (k26, k25) if k25 > k26 else (k25, k26)
    k27, k28 = (k28, k27) if k27 > k28 else (k27, k28)
    k29, k30 = (k30, k29) if k29 > k30 else (k29, k30)
    k31, k32 = (k32, k31) if k31 > k32 else (k31, k32)
    k33, k34 = (k34, k33) if k33 > k34 else (k33, k34)
    k35, k36 = (k36, k35) if k35 > k36 else (k35, k36)
    k37, k38 = (k38, k37) if k37 > k38 else (k37, k38)
    k39, k40 = (k40, k39) if k39 > k40 else (k39, k40)
    k41, k42 = (k42, k41) if k41 > k42 else (k41, k42)
    k43, k44 = (k44, k43) if k43 > k44 else (k43, k44)
    k45, k46 = (k46, k45) if k45 > k46 else (k45, k46)
    return [
        k0 & 63,
        k1 & 63,
        k2 & 63,
        k3 & 63,
        k4 & 63,
        k5 & 63,
        k6 & 63,
        k7 & 63,
        k8 & 63,
        k9 & 63,
        k10 & 63,
        k11 & 63,
        k12 & 63,
        k13 & 63,
        k14 & 63,
        k15 & 63,
        k16 & 63,
        k17 & 63,
        k18 & 63,
        k19 & 63,
        k20 & 63,
        k21 & 63,
        k22 & 63,
        k23 & 63,
        k24 & 63,
        k25 & 63,
        k26 & 63,
        k27 & 63,
        k28 & 63,
        k29 & 63,
        k30 & 63,
        k31 & 63,
        k32 & 63,
        k33 & 63,
        k34 & 63,
        k35 & 63,
        k36 & 63,
        k37 & 63,
        k38 & 63,
        k39 & 63,
        k40 & 63,
        k41 & 63,
        k42 & 63,
        k43 & 63,
        k44 & 63,
        k45 & 63,
        k46 & 63,
        k47 & 63,
    ]


__all__ = ["deck_by_network"]


# --- end of the compiled part: what follows swaps in the compiled module when it is there.

swap_in(globals())
