// The rules the hostile cases exercise, by their IDs in docs/rules.md. The text of each
// rule lives on that page only: the generator embeds the page at build time and writes
// each case's `rule` from it (corpus.cpp), and an ID the page does not define stops the
// generator. `section` is the importer spec's section the rule belongs to (for the D
// rules, the section of the question they decide).
#pragma once

#include "corpus.hpp"

namespace hostile::rules {

// W: protobuf reading (section 1)
inline constexpr Rule range{"W1", "1"};
inline constexpr Rule key32{"W2", "1"};
inline constexpr Rule field0{"W2", "1"};
inline constexpr Rule wire_read{"W3", "1"};
inline constexpr Rule wire_bad{"W3", "1"};
inline constexpr Rule tenth{"W4", "1"};
inline constexpr Rule varint_cut{"W5", "1"};
inline constexpr Rule overlong{"W6", "1"};
inline constexpr Rule len64{"W7", "1"};
inline constexpr Rule len_big{"W8", "1"};
inline constexpr Rule int32{"W9", "1"};
inline constexpr Rule int64{"W10", "1"};
inline constexpr Rule utf8{"W11", "1"};
inline constexpr Rule bytes{"W12", "1"};
inline constexpr Rule packed{"W13", "1"};
inline constexpr Rule unknown{"W14", "1"};
inline constexpr Rule last_wins{"W15", "1"};
inline constexpr Rule no_merge{"W16", "1"};
inline constexpr Rule nesting{"W17", "1"};
inline constexpr Rule nesting3{"W18", "1"};
inline constexpr Rule size{"W19", "1"};

// M: messages and fields (section 2)
inline constexpr Rule ir{"M1", "2"};
inline constexpr Rule no_graph{"M2", "2"};
inline constexpr Rule infer{"M3", "2"};
inline constexpr Rule no_value{"M4", "2"};
inline constexpr Rule scalar_absent{"M5", "2"};
inline constexpr Rule declared_absent{"M6", "2"};
inline constexpr Rule ref_attr{"M7", "2"};
inline constexpr Rule no_type{"M8", "2"};
inline constexpr Rule shape{"M9", "2"};
inline constexpr Rule dim_unknown{"M10", "2"};

// T: tensors (section 3)
inline constexpr Rule dims_neg{"T2", "3"};
inline constexpr Rule count{"T3", "3"};
inline constexpr Rule byte_len{"T4", "3"};
inline constexpr Rule sub_byte{"T5", "3"};
inline constexpr Rule too_big{"T6", "3"};
inline constexpr Rule source_order{"T7", "3"};
inline constexpr Rule mixing{"T8", "3"};
inline constexpr Rule no_source{"T9", "3"};
inline constexpr Rule float_double_int64{"T10", "3"};
inline constexpr Rule uint64_data{"T11", "3"};
inline constexpr Rule int32_data{"T12", "3"};
inline constexpr Rule int32_packed{"T13", "3"};
inline constexpr Rule int32_six{"T14", "3"};
inline constexpr Rule not_own{"T15", "3"};
inline constexpr Rule typed_len{"T16", "3"};
inline constexpr Rule strings{"T17", "3"};
inline constexpr Rule segments{"T18", "3"};
inline constexpr Rule raw_len{"T19", "3"};
inline constexpr Rule little_endian{"T20", "3"};
inline constexpr Rule sparse{"T21", "3"};

// G: the graph (section 4)
inline constexpr Rule values{"G1", "4"};
inline constexpr Rule twice{"G2", "4"};
inline constexpr Rule empty_name{"G3", "4"};
inline constexpr Rule scope{"G4", "4"};
inline constexpr Rule captures{"G5", "4"};
inline constexpr Rule refs{"G6", "4"};
inline constexpr Rule opset{"G7", "4"};
inline constexpr Rule domain{"G8", "4"};
inline constexpr Rule fn_body{"G9", "4"};
inline constexpr Rule types{"G10", "4"};
inline constexpr Rule vi_ignored{"G11", "4"};
inline constexpr Rule order_kept{"G12", "4"};
inline constexpr Rule order_sort{"G13", "4"};
inline constexpr Rule cycle{"G14", "4"};
inline constexpr Rule consumers{"G15", "4"};
inline constexpr Rule functions{"G16", "4"};

// E: external data (section 5)
inline constexpr Rule entries{"E1", "5"};
inline constexpr Rule relative{"E2", "5"};
inline constexpr Rule joined{"E3", "5"};
inline constexpr Rule inside{"E4", "5"};
inline constexpr Rule decimal{"E5", "5"};
inline constexpr Rule length_eq{"E6", "5"};
inline constexpr Rule range_end{"E7", "5"};
inline constexpr Rule mapped{"E8", "5"};
inline constexpr Rule everywhere{"E10", "5"};
inline constexpr Rule aliased{"E11", "5"};

// R: memory (section 6)
inline constexpr Rule closed{"R3", "6"};

// D: this project's decisions
inline constexpr Rule elem_code{"D2", "3"};
inline constexpr Rule attr_code{"D3", "2"};
inline constexpr Rule location_code{"D4", "3"};
inline constexpr Rule dup_key{"D5", "5"};
inline constexpr Rule unknown_key{"D6", "5"};
inline constexpr Rule hard_link{"D7", "5"};
inline constexpr Rule os_cannot_read{"D8", "7"};
inline constexpr Rule operators{"D9", "4"};
inline constexpr Rule value_elem_type{"D10", "2"};
inline constexpr Rule foreign_names{"D11", "5"};
inline constexpr Rule long_names{"D12", "7"};
inline constexpr Rule not_regular{"D13", "5"};
inline constexpr Rule near_linear{"D14", "4"};

}  // namespace hostile::rules
