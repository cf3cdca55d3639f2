/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHeader");
NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Mlfabric")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "PFC";
    for (uint8_t p = 0; p < 8; ++p)
    {
        if (IsEnabled(p))
        {
            os << " p" << unsigned(p) << "=" << m_quanta[p];
        }
    }
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return 2 + 2 + 8 * 2; // opcode, class-enable vector, eight times
}

void
PfcHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteHtonU16(0x0101);
    i.WriteHtonU16(m_classEnable);
    for (uint16_t q : m_quanta)
    {
        i.WriteHtonU16(q);
    }
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    i.ReadNtohU16(); // opcode
    m_classEnable = i.ReadNtohU16();
    for (auto& q : m_quanta)
    {
        q = i.ReadNtohU16();
    }
    return GetSerializedSize();
}

void
PfcHeader::SetQuanta(uint8_t priority, uint16_t quanta)
{
    m_classEnable |= static_cast<uint16_t>(1u << priority);
    m_quanta[priority] = quanta;
}

bool
PfcHeader::IsEnabled(uint8_t priority) const
{
    return (m_classEnable >> priority) & 1u;
}

uint16_t
PfcHeader::GetQuanta(uint8_t priority) const
{
    return m_quanta[priority];
}

} // namespace ns3
