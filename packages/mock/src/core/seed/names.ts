/** Word lists the seeded leads are drawn from (fictional people at fictional companies). */
const words = (text: string) => text.trim().split(/\s+/);

export const firstNames = words(`
  Maya Jonas Sofia Liam Amara Noah Chloe Mateo Hannah Ravi Elena Tom Aisha Lucas Ingrid
  Kenji Priya Oscar Zoe Felix Nadia Diego Clara Samuel Leila Hugo Mei Victor Alice Omar
`);

export const lastNames = words(`
  Patel Weber Russo Okafor Nguyen Schmidt Garcia Kowalski Tanaka Dubois Andersen Rossi Haddad
  Moreau Fischer Costa Lindqvist Mensah Novak Silva Kaur Bauer Jensen Romero Sato Laurent
  Murphy Ivanova Keller Ahmed
`);

export const companies = [
  { name: 'Acme Robotics', domain: 'acmerobotics.example', industry: 'Industrial Automation' },
  { name: 'Brightlane', domain: 'brightlane.example', industry: 'Logistics Software' },
  { name: 'Lumen Freight', domain: 'lumenfreight.example', industry: 'Freight' },
  { name: 'Northpeak Analytics', domain: 'northpeak.example', industry: 'Data Analytics' },
  { name: 'Corvid Security', domain: 'corvid.example', industry: 'Cybersecurity' },
  { name: 'Tidewater Health', domain: 'tidewater.example', industry: 'Healthcare' },
  { name: 'Fernhill Capital', domain: 'fernhill.example', industry: 'Fintech' },
  { name: 'Quarry Labs', domain: 'quarrylabs.example', industry: 'Biotech' },
  { name: 'Solstice Energy', domain: 'solstice.example', industry: 'Renewable Energy' },
  { name: 'Mosaic Retail', domain: 'mosaicretail.example', industry: 'Retail' },
  { name: 'Halcyon Travel', domain: 'halcyon.example', industry: 'Travel' },
  { name: 'Orbital Foods', domain: 'orbitalfoods.example', industry: 'Food & Beverage' },
] as const;

export const titles = [
  'VP of Sales',
  'Head of Growth',
  'Chief Revenue Officer',
  'Co-founder & CEO',
  'Director of Marketing',
  'CFO',
  'Head of Partnerships',
  'Sales Operations Lead',
] as const;
